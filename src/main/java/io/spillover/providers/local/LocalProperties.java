package io.spillover.providers.local;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.io.Resource;

/**
 * @param region         the default region of entries that name none
 * @param fleet          a YAML file: {@code regions: {<region>: {<instance type>: <on-demand capacity>}}}
 * @param defaultRuntime how long a simulated job (one without a command) runs when it does not say
 * @param stopGrace      how long a stopped process may take to exit before it is killed
 */
@ConfigurationProperties("spillover.local")
record LocalProperties(String region, Resource fleet, Duration defaultRuntime, Duration stopGrace) {

    LocalProperties {
        region = region == null ? "us-east-1" : region;
        defaultRuntime = defaultRuntime == null ? Duration.ofSeconds(60) : defaultRuntime;
        stopGrace = stopGrace == null ? Duration.ofSeconds(10) : stopGrace;
    }
}
