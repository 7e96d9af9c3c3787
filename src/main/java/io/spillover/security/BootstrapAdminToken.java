package io.spillover.security;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * {@code SPILLOVER_BOOTSTRAP_ADMIN_TOKEN}, when set, is a platform-admin token from startup on (stored
 * hashed like any other), for automation and first setup. Changing the value replaces the old one.
 */
@Component
class BootstrapAdminToken implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(BootstrapAdminToken.class);
    static final int MIN_LENGTH = 16;

    private final TokenService tokens;
    private final String secret;

    BootstrapAdminToken(TokenService tokens, @Value("${spillover.bootstrap-admin-token:}") String secret) {
        this.tokens = tokens;
        this.secret = secret;
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (secret.isBlank()) {
            return;
        }
        if (secret.length() < MIN_LENGTH) {
            throw new IllegalStateException("SPILLOVER_BOOTSTRAP_ADMIN_TOKEN must be at least " + MIN_LENGTH
                    + " characters");
        }
        tokens.bootstrap(secret);
        log.info("The bootstrap admin token from SPILLOVER_BOOTSTRAP_ADMIN_TOKEN is a platform-admin token");
    }
}
