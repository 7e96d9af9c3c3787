package io.spillover.system;

import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class TimeConfiguration {

    /** The one source of "now" outside the placement core, which takes time as an argument. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
