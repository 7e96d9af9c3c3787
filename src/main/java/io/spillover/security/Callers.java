package io.spillover.security;

import java.util.Optional;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.oauth2.core.user.OAuth2User;
import org.springframework.stereotype.Component;

/**
 * The caller of the current request. A token's caller is fixed when the token is checked; a signed-in
 * person's is read afresh, so a membership granted or removed counts from their next request.
 */
@Component
public class Callers {

    private final UserService users;

    Callers(UserService users) {
        this.users = users;
    }

    public Optional<Caller> current() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication == null || !authentication.isAuthenticated()) {
            return Optional.empty();
        }
        Object principal = authentication.getPrincipal();
        if (principal instanceof Caller caller) {
            return Optional.of(caller);
        }
        if (principal instanceof UserDetails user) {
            return users.caller(user.getUsername());
        }
        if (principal instanceof OAuth2User user) {
            return users.caller(user.getName().toLowerCase());
        }
        return Optional.empty();
    }

    /** The current caller's name for the audit log. */
    public String name() {
        return current().map(Caller::name).orElse("anonymous");
    }
}
