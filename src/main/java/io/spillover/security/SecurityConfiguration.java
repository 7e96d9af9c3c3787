package io.spillover.security;

import io.spillover.audit.AuditEntry;
import io.spillover.audit.AuditLog;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import jakarta.servlet.DispatcherType;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.security.web.authentication.SimpleUrlAuthenticationFailureHandler;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Two ways in. The API ({@code /api/**}, and the Prometheus endpoint for platform-admin tokens) takes bearer
 * tokens only: stateless, no cookies, so no CSRF to guard. The console takes a signed-in session (form login, or OpenID Connect when configured) with CSRF
 * protection on every form. What each caller may do is decided per operation by {@link AccessInterceptor}.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    /** bcrypt by default, with the encoder's id stored beside each hash so it can change later. */
    @Bean
    static PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    /**
     * A request the firewall refuses (an encoded slash, period or percent, a `..` segment, a NUL) is answered
     * with a problem document like any other refusal, not with the servlet container's error page.
     */
    @Bean
    RequestRejectedHandler requestRejectedHandler() {
        return (request, response, e) -> ProblemWriter.write(response, HttpStatus.BAD_REQUEST,
                "the request's URL is not allowed: " + e.getMessage().replaceAll("\\p{Cntrl}", " "));
    }

    @Bean
    @Order(1)
    SecurityFilterChain api(HttpSecurity http, TokenService tokens, FailureLimiter limiter, AuditLog audit,
                            Clock clock) throws Exception {
        return http
                .securityMatcher("/api/**", "/actuator/prometheus")
                .csrf(csrf -> csrf.disable())
                .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(cache -> cache.disable())
                .addFilterBefore(new TokenAuthenticationFilter(tokens, limiter, audit, clock),
                        AnonymousAuthenticationFilter.class)
                .authorizeHttpRequests(requests -> requests
                        // a stream's (a job's events) closing dispatch: its request was authorized when it came in,
                        // and a token is not sent again for it
                        .dispatcherTypeMatchers(DispatcherType.ASYNC).permitAll()
                        .requestMatchers("/actuator/prometheus").hasRole("PLATFORM_ADMIN")
                        .anyRequest().authenticated())
                .exceptionHandling(errors -> errors
                        .authenticationEntryPoint((request, response, e) -> {
                            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
                            ProblemWriter.write(response, HttpStatus.UNAUTHORIZED,
                                    "send an API token as 'Authorization: Bearer <token>'");
                        })
                        .accessDeniedHandler((request, response, e) ->
                                ProblemWriter.write(response, HttpStatus.FORBIDDEN, "not allowed")))
                .build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain console(HttpSecurity http, FailureLimiter limiter, AuditLog audit, Clock clock,
                                ObjectProvider<ClientRegistrationRepository> oidc,
                                ObjectProvider<OidcMemberships> memberships) throws Exception {
        var failures = new SimpleUrlAuthenticationFailureHandler("/login?error") {
            @Override
            public void onAuthenticationFailure(HttpServletRequest request, HttpServletResponse response,
                                                org.springframework.security.core.AuthenticationException e)
                    throws IOException, ServletException {
                limiter.failed(request.getRemoteAddr());
                audit.record(new AuditEntry(clock.instant(), String.valueOf(request.getParameter("username")),
                        "LOGIN_FAILED", "console", "refused", request.getRemoteAddr()));
                super.onAuthenticationFailure(request, response, e);
            }
        };
        http
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers("/login", "/error", "/css/**", "/js/**", "/images/**", "/webjars/**",
                                "/favicon.ico", "/actuator/health/**", "/actuator/health", "/v3/api-docs/**",
                                "/swagger-ui/**", "/swagger-ui.html").permitAll()
                        .anyRequest().authenticated())
                .addFilterBefore(new LoginLimit(limiter), UsernamePasswordAuthenticationFilter.class)
                .formLogin(form -> form.loginPage("/login").defaultSuccessUrl("/", false).failureHandler(failures)
                        .permitAll())
                .logout(logout -> logout.logoutUrl("/logout").logoutSuccessUrl("/login?logout"));
        if (oidc.getIfAvailable() != null) {
            http.oauth2Login(login -> login.loginPage("/login")
                    .userInfoEndpoint(userInfo -> userInfo.oidcUserService(memberships.getObject())));
        }
        return http.build();
    }

    /** Refuses sign-in attempts from an address that failed too often, before the password is checked. */
    private static final class LoginLimit extends OncePerRequestFilter {

        private final FailureLimiter limiter;

        LoginLimit(FailureLimiter limiter) {
            this.limiter = limiter;
        }

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            Optional<Duration> blocked = "POST".equals(request.getMethod()) && "/login".equals(request.getServletPath())
                    ? limiter.blocked(request.getRemoteAddr()) : Optional.empty();
            if (blocked.isPresent()) {
                ProblemWriter.tooManyFailures(response, blocked.get());
                return;
            }
            chain.doFilter(request, response);
        }
    }
}
