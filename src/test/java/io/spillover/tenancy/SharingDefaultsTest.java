package io.spillover.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.placement.SharingPolicy;
import io.spillover.replay.ReplayConfig;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.io.FileSystemResource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The service ships the sharing the replay measured: {@code application.yml} and the benchmark's fleet files both say
 * {@link SharingPolicy#DEFAULT}, so that a default changed in one place is not left behind in another (the borrow
 * horizon went from 2 h to 4 h in all three at once).
 */
class SharingDefaultsTest {

    @Test
    void theServiceShipsTheCoresDefault() throws IOException {
        var sources = new YamlPropertySourceLoader().load("application.yml",
                new FileSystemResource("src/main/resources/application.yml"));
        var binder = new Binder(ConfigurationPropertySources.from(sources));

        SharingProperties shipped = binder.bind("spillover.sharing", SharingProperties.class).get();

        assertThat(shipped.policy(SharingPolicy.DEFAULT.cycle())).isEqualTo(SharingPolicy.DEFAULT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"src/bench/replay-fleet.json", "src/bench/replay-fleet-scarce.json"})
    void theReplayMeasuresTheCoresDefault(String fleetFile) {
        ReplayConfig fleet = JsonMapper.builder().build().readValue(Path.of(fleetFile).toFile(), ReplayConfig.class);

        assertThat(fleet.lending().policy()).as(fleetFile).isEqualTo(SharingPolicy.DEFAULT);
    }
}
