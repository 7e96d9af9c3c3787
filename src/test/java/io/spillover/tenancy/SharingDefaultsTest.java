package io.spillover.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.placement.SharingPolicy;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.io.FileSystemResource;

/**
 * The service ships the placement core's default sharing: what {@code application.yml} sets is what the replay
 * measured ({@link SharingPolicy#DEFAULT}), so that a default changed in one place is not left behind in the other.
 */
class SharingDefaultsTest {

    @Test
    void theShippedSettingsAreTheSharingTheReplayMeasured() throws IOException {
        var sources = new YamlPropertySourceLoader().load("application.yml",
                new FileSystemResource("src/main/resources/application.yml"));
        var binder = new Binder(ConfigurationPropertySources.from(sources));

        SharingProperties shipped = binder.bind("spillover.sharing", SharingProperties.class).get();

        assertThat(shipped.policy(SharingPolicy.DEFAULT.cycle())).isEqualTo(SharingPolicy.DEFAULT);
        assertThat(shipped.borrowHorizon()).isEqualTo(Duration.ofHours(4));
    }
}
