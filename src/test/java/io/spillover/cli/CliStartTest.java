package io.spillover.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.SpilloverApplication;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar spillover.jar cli ...} and {@code bin/spillover ...} run the CLI from the service's own main, in
 * a JVM of their own: it answers and exits without loading a single class of Spring.
 */
class CliStartTest {

    private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");

    @TempDir
    Path dir;

    record Exit(int status, String output) {
    }

    @Test
    void theApplicationsMainRunsTheCliWithoutStartingSpring() throws Exception {
        Exit run = run(new ProcessBuilder(JAVA.toString(), "-Xlog:class+load=info", "-cp",
                System.getProperty("java.class.path"), SpilloverApplication.class.getName(), "cli", "--version"));

        assertThat(run.status()).isZero();
        assertThat(run.output()).contains("spillover CLI").contains("picocli.CommandLine")
                .doesNotContain("org.springframework");
    }

    @Test
    void theWrapperRunsTheJarsCliWithItsArgumentsAndExitStatus() throws Exception {
        Path jar = applicationJar();
        ProcessBuilder wrapper = new ProcessBuilder("sh", Path.of("bin/spillover").toAbsolutePath().toString(),
                "submit", "--file", "a job with spaces.yaml");
        wrapper.environment().put("SPILLOVER_JAR", jar.toString());
        wrapper.environment().put("JAVA_HOME", System.getProperty("java.home"));
        wrapper.environment().put("HOME", dir.toString());

        Exit run = run(wrapper);

        assertThat(run.status()).isEqualTo(ExitCode.USAGE.code);
        assertThat(run.output()).contains("spillover: a job with spaces.yaml: no such file");
    }

    @Test
    void theWrapperSaysHowToBuildTheJarWhenThereIsNone() throws Exception {
        ProcessBuilder wrapper = new ProcessBuilder("sh", Path.of("bin/spillover").toAbsolutePath().toString(), "jobs");
        wrapper.environment().put("SPILLOVER_JAR", dir.resolve("absent.jar").toString());

        Exit run = run(wrapper);

        assertThat(run.status()).isEqualTo(ExitCode.USAGE.code);
        assertThat(run.output()).contains("no Spillover jar at", "./mvnw -q -DskipTests package");
    }

    /** A jar that is only a manifest: the application's main, and this test's class path as its own. */
    private Path applicationJar() throws IOException {
        var manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, SpilloverApplication.class.getName());
        List<String> classPath = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            classPath.add(Path.of(entry).toAbsolutePath().toUri().toString());
        }
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, String.join(" ", classPath));
        Path jar = dir.resolve("spillover.jar");
        try (OutputStream out = Files.newOutputStream(jar); var ignored = new JarOutputStream(out, manifest)) {
            return jar;
        }
    }

    private static Exit run(ProcessBuilder process) throws IOException, InterruptedException {
        Process started = process.redirectErrorStream(true).start();
        String output = new String(started.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(started.waitFor(60, TimeUnit.SECONDS)).as("exited: %s", output).isTrue();
        return new Exit(started.exitValue(), output);
    }
}
