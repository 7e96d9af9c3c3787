package io.spillover.security;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Puts every API operation behind its {@link io.spillover.system.Access} rule. */
@Configuration(proxyBeanMethods = false)
class AccessRegistration implements WebMvcConfigurer {

    private final AccessInterceptor access;

    AccessRegistration(AccessInterceptor access) {
        this.access = access;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(access).addPathPatterns("/api/**");
    }
}
