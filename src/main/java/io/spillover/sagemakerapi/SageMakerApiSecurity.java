package io.spillover.sagemakerapi;

import io.spillover.audit.AuditLog;
import io.spillover.security.FailureLimiter;
import io.spillover.security.TokenService;
import java.time.Clock;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.util.unit.DataSize;

/**
 * The endpoint's own way in, before the API's and the console's: SigV4 signatures only ({@link SignedRequests}),
 * stateless, no cookies and so no CSRF to guard.
 */
@Configuration(proxyBeanMethods = false)
class SageMakerApiSecurity {

    @Bean
    @Order(0)
    SecurityFilterChain sagemakerApi(HttpSecurity http, TokenService tokens, FailureLimiter limiter, AuditLog audit,
                                     Clock clock, @Value("${spillover.http.max-body-size:1MB}") DataSize maxBodySize)
            throws Exception {
        return http
                .securityMatcher("/sagemaker", "/sagemaker/**")
                .csrf(csrf -> csrf.disable())
                .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(cache -> cache.disable())
                .addFilterBefore(new SignedRequests(tokens, limiter, audit, clock, maxBodySize.toBytes()),
                        AnonymousAuthenticationFilter.class)
                .authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
                .exceptionHandling(errors -> errors
                        .authenticationEntryPoint((request, response, e) -> new AwsError(
                                "MissingAuthenticationTokenException", "Missing Authentication Token").write(response))
                        .accessDeniedHandler((request, response, e) -> new AwsError("AccessDeniedException",
                                "not allowed").write(response)))
                .build();
    }
}
