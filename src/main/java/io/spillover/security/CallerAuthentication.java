package io.spillover.security;

import java.util.List;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/** A request authenticated by an API token: its caller is the token's team and role. */
final class CallerAuthentication extends AbstractAuthenticationToken {

    private final Caller caller;

    CallerAuthentication(Caller caller) {
        super(caller.platformAdmin() ? List.of(new SimpleGrantedAuthority("ROLE_PLATFORM_ADMIN")) : List.of());
        this.caller = caller;
        setAuthenticated(true);
    }

    @Override
    public Object getCredentials() {
        return "";
    }

    @Override
    public Caller getPrincipal() {
        return caller;
    }
}
