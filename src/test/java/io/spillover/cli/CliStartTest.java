package io.spillover.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.SpilloverApplication;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code java -jar spillover.jar cli ...} runs the CLI in the service's own main: in a JVM of its own, with the
 * application's class path, it answers and exits without loading a single class of Spring.
 */
class CliStartTest {

    @Test
    void theApplicationsMainRunsTheCliWithoutStartingSpring() throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-Xlog:class+load=info",
                "-cp", System.getProperty("java.class.path"), SpilloverApplication.class.getName(), "cli", "--version")
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(process.exitValue()).isZero();
        assertThat(output).contains("spillover CLI").contains("picocli.CommandLine")
                .doesNotContain("org.springframework");
    }

    @Test
    void aBadCommandLineExitsWithTheUsageCode() throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                SpilloverApplication.class.getName(), "cli", "submit").redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(process.exitValue()).isEqualTo(ExitCode.USAGE.code);
        assertThat(output).contains("Missing required option: '--file=FILE'");
    }
}
