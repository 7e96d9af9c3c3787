package io.spillover.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The image runs Spillover on a Java 17+ runtime as a numeric non-root user, on the server port, with no
 * secret baked in. (That its layers follow the jar's and that its entrypoint starts the application is
 * {@link ContainerImageIT}'s, which needs the packaged jar.)
 */
class DockerfileTest {

    private static final Pattern TEMURIN_JRE = Pattern.compile("eclipse-temurin:(\\d+)-jre");

    private final Dockerfile dockerfile = Dockerfile.read();

    @Test
    void buildsAndRunsOnAJava17OrLaterRuntime() {
        assertThat(dockerfile.stages()).hasSize(2).allSatisfy(stage -> {
            Matcher image = TEMURIN_JRE.matcher(stage.image());
            assertThat(image.matches()).as(stage.image()).isTrue();
            assertThat(Integer.parseInt(image.group(1))).isGreaterThanOrEqualTo(17);
        });
    }

    @Test
    void runsAsANumericUserOtherThanRoot() {
        String user = dockerfile.runtime().only("USER").arguments();
        assertThat(user).matches("\\d+:\\d+");
        assertThat(Integer.parseInt(user.split(":")[0])).isPositive();
        assertThat(Integer.parseInt(user.split(":")[1])).isPositive();
    }

    @Test
    void exposesTheServerPort() {
        assertThat(dockerfile.runtime().only("EXPOSE").arguments()).isEqualTo(Endpoints.SERVER_PORT);
    }

    @Test
    void bakesInNoSecret() {
        for (Dockerfile.Stage stage : dockerfile.stages()) {
            assertThat(stage.all("ENV").stream().map(Dockerfile.Instruction::arguments))
                    .noneMatch(env -> env.matches("(?i).*(token|password|secret|credential).*"));
            assertThat(stage.all("ARG").stream().map(Dockerfile.Instruction::arguments))
                    .noneMatch(arg -> arg.matches("(?i).*(token|password|secret|credential).*"));
        }
    }

    @Test
    void startsTheLauncherWithTheHeapAShareOfTheContainersMemory() {
        List<String> entrypoint = dockerfile.runtime().entrypoint();
        assertThat(entrypoint.get(0)).isEqualTo("java");
        assertThat(entrypoint).anyMatch(option -> option.startsWith("-XX:MaxRAMPercentage="))
                .noneMatch(option -> option.startsWith("-Xmx"));
        assertThat(entrypoint.get(entrypoint.size() - 1)).isEqualTo("org.springframework.boot.loader.launch.JarLauncher");
    }

    @Test
    void keepsTheDataDirectoryInTheUsersHome() {
        // The default ./.spillover would sit in the read-only, root-owned application directory.
        assertThat(dockerfile.runtime().environment()).containsEntry("SPILLOVER_DATA_DIR", "/var/lib/spillover");
        assertThat(dockerfile.runtime().only("RUN").arguments()).contains("--home-dir /var/lib/spillover --create-home");
    }
}
