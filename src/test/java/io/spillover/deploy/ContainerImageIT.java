package io.spillover.deploy;

import static io.spillover.deploy.Manifests.at;
import static io.spillover.deploy.Manifests.container;
import static io.spillover.deploy.Manifests.kubernetes;
import static io.spillover.deploy.Manifests.list;
import static io.spillover.deploy.Manifests.maps;
import static io.spillover.deploy.Manifests.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.spillover.support.TestDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * What can run here of the container image, without Docker: the Dockerfile's extraction command on the
 * real packaged jar, its layers copied in its order into its working directory, and the application started
 * exactly as its ENTRYPOINT does, on real PostgreSQL. The running instance must answer the paths the
 * probes, the compose health check and the ServiceMonitor use, and stop gracefully on SIGTERM within the
 * Deployment's grace period.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ContainerImageIT {

    private static final Dockerfile DOCKERFILE = Dockerfile.read();
    private static final Pattern LAYER = Pattern.compile("^- \"([^\"]+)\":$");
    private static final String ADMIN_TOKEN = "image-it-" + UUID.randomUUID();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    static Path root;
    private static Path log;
    private static int port;
    private static Process application;

    @BeforeAll
    static void buildTheImageAndStartIt() throws Exception {
        Path workdir = buildImage();
        port = freePort();
        log = root.resolve("application.log");

        List<String> command = new ArrayList<>(DOCKERFILE.runtime().entrypoint());
        command.set(0, java());
        var process = new ProcessBuilder(command).directory(workdir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> environment = process.environment();
        environment.keySet().removeIf(name -> name.startsWith("SPRING_") || name.startsWith("SPILLOVER_")
                || name.equals("SERVER_PORT"));
        environment.putAll(DOCKERFILE.runtime().environment());
        environment.put("SPRING_DATASOURCE_URL", TestDatabase.newDatabase());
        environment.put("SPRING_DATASOURCE_USERNAME", "postgres");
        environment.put("SPRING_DATASOURCE_PASSWORD", "postgres");
        environment.put("SERVER_PORT", String.valueOf(port));
        environment.put("SPILLOVER_DATA_DIR", Files.createDirectories(root.resolve("data")).toString());
        environment.put("SPILLOVER_BOOTSTRAP_ADMIN_TOKEN", ADMIN_TOKEN);
        application = process.start();

        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250)).until(() -> {
            if (!application.isAlive()) {
                throw new AssertionError("the application exited with " + application.exitValue() + ":\n" + logTail());
            }
            return isReady();
        });
    }

    @AfterAll
    static void stopTheApplication() throws InterruptedException {
        if (application != null && application.isAlive()) {
            application.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    @Order(1)
    void copiesTheLayersTheJarListsInTheirOrder() throws IOException {
        List<String> copied = DOCKERFILE.runtime().all("COPY").stream()
                .map(copy -> Path.of(copy.words().get(1)).getFileName().toString()).toList();

        assertThat(copied).containsExactly("dependencies", "spring-boot-loader", "snapshot-dependencies", "application")
                .isEqualTo(layersOf(packagedJar()));
    }

    @Test
    @Order(2)
    void answersTheProbesTheManifestsUse() throws Exception {
        Map<String, Object> container = container();
        for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
            HttpResponse<String> answer = get(string(container, probe + ".httpGet.path"), null);
            assertThat(answer.statusCode()).as(probe).isEqualTo(200);
            assertThat(answer.body()).as(probe).contains("\"status\":\"UP\"");
        }
    }

    @Test
    @Order(3)
    void passesTheComposeHealthcheck() throws Exception {
        List<Object> check = list(Manifests.composeReplicas().get("spillover-1"), "healthcheck.test");
        assertThat(check.subList(0, 3)).containsExactly("CMD", "bash", "-c");
        String script = ((String) check.get(3)).replace("/" + Endpoints.SERVER_PORT + " ", "/" + port + " ");

        Process healthcheck = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
        assertThat(healthcheck.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(healthcheck.exitValue()).as(new String(healthcheck.getInputStream().readAllBytes())).isZero();
    }

    @Test
    @Order(4)
    void servesMetricsToTheBootstrapTokenOnly() throws Exception {
        String path = string(maps(kubernetes("ServiceMonitor"), "spec.endpoints").get(0), "path");

        assertThat(get(path, null).statusCode()).isEqualTo(401);
        HttpResponse<String> scrape = get(path, ADMIN_TOKEN);
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.body()).contains("spillover_leader", "spillover_placement_fallback_depth");
    }

    @Test
    @Order(5)
    void stopsGracefullyWithinTheTerminationGracePeriod() throws Exception {
        int gracePeriod = (Integer) at(kubernetes("Deployment"), "spec.template.spec.terminationGracePeriodSeconds");

        application.destroy();

        assertThat(application.waitFor(gracePeriod, TimeUnit.SECONDS)).as(ContainerImageIT::logTail).isTrue();
        assertThat(application.exitValue()).isEqualTo(128 + 15);
        assertThat(Files.readString(log)).contains("Graceful shutdown complete");
    }

    /**
     * Does what {@code docker build} does with the Dockerfile: copies the jar into the first stage, runs its
     * extraction there, and moves the layers into the last stage's working directory; that directory.
     */
    private static Path buildImage() throws Exception {
        Dockerfile.Stage layers = DOCKERFILE.stages().get(0);
        Path layersStage = root.resolve("layers-stage");
        Path build = Files.createDirectories(inside(layersStage, layers.only("WORKDIR").arguments()));
        List<String> copyJar = layers.only("COPY").words();
        assertThat(copyJar.get(0)).isEqualTo("${JAR_FILE}");
        Files.copy(packagedJar(), build.resolve(copyJar.get(1)));

        List<String> extract = new ArrayList<>(layers.only("RUN").words());
        assertThat(extract.get(0)).isEqualTo("java");
        extract.set(0, java());
        Process extraction = new ProcessBuilder(extract).directory(build.toFile()).redirectErrorStream(true)
                .redirectOutput(root.resolve("extract.log").toFile()).start();
        assertThat(extraction.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(extraction.exitValue()).as(() -> read(root.resolve("extract.log"))).isZero();

        Dockerfile.Stage runtime = DOCKERFILE.runtime();
        Path runtimeStage = root.resolve("runtime-stage");
        Path workdir = Files.createDirectories(inside(runtimeStage, runtime.only("WORKDIR").arguments()));
        for (Dockerfile.Instruction copy : runtime.all("COPY")) {
            List<String> words = copy.words();
            assertThat(words).hasSize(3);
            assertThat(words.get(0)).isEqualTo("--from=" + layers.name());
            merge(inside(layersStage, words.get(1)), workdir.resolve(words.get(2)));
        }
        return workdir;
    }

    /** A path of a stage's file system, under the directory that stands for its root. */
    private static Path inside(Path stageRoot, String absolute) {
        assertThat(absolute).startsWith("/");
        return stageRoot.resolve(absolute.substring(1));
    }

    /** COPY of a directory: its contents go into the target, beside what earlier layers put there. */
    private static void merge(Path source, Path target) throws IOException {
        assertThat(source).isDirectory();
        try (Stream<Path> tree = Files.walk(source)) {
            for (Path from : tree.toList()) {
                Path to = target.resolve(source.relativize(from).toString());
                if (Files.isDirectory(from)) {
                    Files.createDirectories(to);
                } else {
                    Files.move(from, to);
                }
            }
        }
    }

    private static Path packagedJar() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            List<Path> jars = files.filter(f -> f.getFileName().toString().matches("spillover-.*\\.jar")).toList();
            assertThat(jars).as("the jar `./mvnw package` makes").hasSize(1);
            return jars.get(0);
        }
    }

    private static List<String> layersOf(Path jar) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile()); InputStream index = zip.getInputStream(zip.getEntry("BOOT-INF/layers.idx"))) {
            var layers = new ArrayList<String>();
            for (String line : new String(index.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                Matcher layer = LAYER.matcher(line);
                if (layer.matches()) {
                    layers.add(layer.group(1));
                }
            }
            return layers;
        }
    }

    private static HttpResponse<String> get(String path, String token) throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).timeout(Duration.ofSeconds(5));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static boolean isReady() throws IOException, InterruptedException {
        try {
            return get(string(container(), "readinessProbe.httpGet.path"), null).statusCode() == 200;
        } catch (ConnectException notListeningYet) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String logTail() {
        List<String> lines = read(log).lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e + ")";
        }
    }
}
