package io.spillover.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Demo logins for the embedded default: a platform admin and a member of each demo team, with random
 * passwords kept (for this machine only) in {@code <data dir>/demo-logins.txt} and printed at every
 * start. Never seeded into a database given by URL.
 */
@Component
@ConditionalOnExpression("'${spring.datasource.url:}'.isEmpty() and ${spillover.demo.enabled:true}")
class DemoPeople {

    private static final Logger log = LoggerFactory.getLogger(DemoPeople.class);

    private final UserService users;
    private final Path logins;

    DemoPeople(UserService users, @Value("${spillover.data-dir}") Path dataDir) {
        this.users = users;
        this.logins = dataDir.toAbsolutePath().resolve("demo-logins.txt");
    }

    @EventListener(ApplicationReadyEvent.class)
    void seedAndPrint() {
        try {
            if (!users.anyUsers()) {
                seed();
            }
            if (Files.exists(logins)) {
                log.info("Demo logins (from {}):\n{}", logins, Files.readString(logins).stripTrailing());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the demo logins in " + logins, e);
        }
    }

    private void seed() throws IOException {
        var text = new StringBuilder();
        text.append(person("admin", "Platform Admin", true, null, null));
        text.append(person("vera", "Vera (vision)", false, "vision", TeamRole.TEAM_ADMIN));
        text.append(person("noah", "Noah (nlp)", false, "nlp", TeamRole.MEMBER));
        Files.writeString(logins, text);
        try {
            Files.setPosixFilePermissions(logins, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException notPosix) {
            // Windows: the file keeps the data directory's permissions
        }
    }

    private String person(String username, String name, boolean admin, String team, TeamRole role) {
        byte[] random = new byte[12];
        new SecureRandom().nextBytes(random);
        String password = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        users.put(username, new UserDefinition(name, password, admin, false));
        if (team != null) {
            users.setMembership(username, team, role);
        }
        return "  " + username + " / " + password + (admin ? "  (platform admin)" : "  (" + role + " of " + team + ")")
                + System.lineSeparator();
    }
}
