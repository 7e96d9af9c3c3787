package io.spillover.security;

import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.NotFoundException;
import io.spillover.shared.Violation;
import io.spillover.system.Access;
import io.spillover.system.Change;
import io.spillover.system.Validation;
import io.spillover.tenancy.TeamService;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** People who sign in to the console, and the teams they belong to. */
@Service
public class UserService implements UserDetailsService {

    static final Pattern USERNAME = Pattern.compile("^[a-z0-9][a-z0-9._@-]{0,99}$");

    private final Users users;
    private final TeamService teams;
    private final PasswordEncoder passwords;
    private final Validation validation;
    private final Clock clock;

    UserService(Users users, TeamService teams, PasswordEncoder passwords, Validation validation, Clock clock) {
        this.users = users;
        this.teams = teams;
        this.passwords = passwords;
        this.validation = validation;
        this.clock = clock;
    }

    /** Creates or changes a user; answers whether it was created. */
    @Transactional
    @Change(level = Access.Level.PLATFORM_ADMIN, action = "save user", target = "users/{username}")
    public boolean put(String username, UserDefinition definition) {
        List<Violation> violations = new ArrayList<>(validation.check(definition));
        if (!USERNAME.matcher(username).matches()) {
            violations.add(0, new Violation("username",
                    "must be 1 to 100 lowercase letters, digits or . _ @ -, starting with a letter or digit"));
        }
        if (definition.password() != null && definition.password().length() <= 72
                && definition.password().getBytes(StandardCharsets.UTF_8).length > 72) {
            violations.add(new Violation("password", "must be at most 72 bytes in UTF-8"));
        }
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        String hash = definition.password() == null ? null : passwords.encode(definition.password());
        return users.save(username, definition.displayName(), hash, Boolean.TRUE.equals(definition.platformAdmin()),
                Boolean.TRUE.equals(definition.disabled()), clock.instant());
    }

    @Transactional
    @Change(level = Access.Level.PLATFORM_ADMIN, action = "set membership", target = "users/{username}/memberships/{team}")
    public UserView setMembership(String username, String team, TeamRole role) {
        requireUser(username);
        if (!teams.exists(team)) {
            throw new NotFoundException("no team " + team);
        }
        if (role == null) {
            throw new InvalidRequestException("role", "must be MEMBER or TEAM_ADMIN");
        }
        users.setMembership(username, team, role);
        return get(username);
    }

    @Transactional
    @Change(level = Access.Level.PLATFORM_ADMIN, action = "remove membership",
            target = "users/{username}/memberships/{team}")
    public void removeMembership(String username, String team) {
        requireUser(username);
        if (!users.removeMembership(username, team)) {
            throw new NotFoundException("user " + username + " is not in team " + team);
        }
    }

    public UserView get(String username) {
        Users.StoredUser user = requireUser(username);
        return new UserView(user.username(), user.displayName(), user.platformAdmin(), user.disabled(),
                new TreeMap<>(users.memberships(username)));
    }

    public List<UserView> list() {
        return users.all().stream().map(u -> new UserView(u.username(), u.displayName(), u.platformAdmin(),
                u.disabled(), new TreeMap<>(users.memberships(u.username())))).toList();
    }

    /** The signed-in user as a caller, with their memberships as they are now; empty when disabled or gone. */
    public Optional<Caller> caller(String username) {
        return users.find(username).filter(u -> !u.disabled())
                .map(u -> new Caller(u.username(), u.platformAdmin(), users.memberships(u.username())));
    }

    /** Creates a user signing in through OpenID Connect on first sight, and sets their memberships from claims. */
    @Transactional
    public Caller adoptExternal(String username, String displayName, Map<String, TeamRole> memberships) {
        Optional<Users.StoredUser> existing = users.find(username);
        users.save(username, displayName, null, existing.map(Users.StoredUser::platformAdmin).orElse(false),
                existing.map(Users.StoredUser::disabled).orElse(false), clock.instant());
        memberships.forEach((team, role) -> {
            if (teams.exists(team)) {
                users.setMembership(username, team, role);
            }
        });
        return caller(username).orElseThrow(() -> new IllegalStateException("user " + username + " is disabled"));
    }

    @Override
    public UserDetails loadUserByUsername(String username) {
        Users.StoredUser user = users.find(username)
                .filter(u -> u.passwordHash() != null)
                .orElseThrow(() -> new UsernameNotFoundException("no user " + username));
        return User.withUsername(user.username()).password(user.passwordHash()).disabled(user.disabled())
                .authorities(user.platformAdmin() ? "ROLE_PLATFORM_ADMIN" : "ROLE_USER").build();
    }

    boolean anyUsers() {
        return users.count() > 0;
    }

    private Users.StoredUser requireUser(String username) {
        return users.find(username).orElseThrow(() -> new NotFoundException("no user " + username));
    }
}
