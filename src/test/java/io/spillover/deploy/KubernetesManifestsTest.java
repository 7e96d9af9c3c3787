package io.spillover.deploy;

import static io.spillover.deploy.Manifests.at;
import static io.spillover.deploy.Manifests.container;
import static io.spillover.deploy.Manifests.kubernetes;
import static io.spillover.deploy.Manifests.list;
import static io.spillover.deploy.Manifests.map;
import static io.spillover.deploy.Manifests.maps;
import static io.spillover.deploy.Manifests.string;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.DurationStyle;

/**
 * The Kubernetes manifests hang together and match the application: probes and scrapes ask the actuator's
 * paths on the container's port, every secret reference resolves, the pods run as the image's non-root user
 * on a read-only root file system, and shutdown has the time Spring's graceful shutdown takes.
 */
class KubernetesManifestsTest {

    private final Map<String, Object> deployment = kubernetes("Deployment");
    private final Map<String, Object> pod = map(deployment, "spec.template");
    private final Map<String, Object> container = container();
    private final Map<String, Object> secret = kubernetes("Secret");

    @Test
    void runsTwoReplicasOneOfWhichMayBeDisrupted() {
        assertThat(at(deployment, "spec.replicas")).isEqualTo(2);
        assertThat(at(kubernetes("PodDisruptionBudget"), "spec.minAvailable")).isEqualTo(1);
        assertThat(at(deployment, "spec.strategy.rollingUpdate.maxUnavailable")).isEqualTo(0);
    }

    @Test
    void probesAskTheActuatorsHealthGroupsOnTheServerPort() {
        assertThat(string(container, "livenessProbe.httpGet.path")).isEqualTo(Endpoints.LIVENESS);
        assertThat(string(container, "startupProbe.httpGet.path")).isEqualTo(Endpoints.LIVENESS);
        assertThat(string(container, "readinessProbe.httpGet.path")).isEqualTo(Endpoints.READINESS);
        for (String probe : List.of("livenessProbe", "startupProbe", "readinessProbe")) {
            assertThat(containerPort(string(container, probe + ".httpGet.port"))).as(probe).isEqualTo(Endpoints.SERVER_PORT);
        }
        assertThat(variable("SERVER_PORT")).isEqualTo(Endpoints.SERVER_PORT);
    }

    @Test
    void prometheusScrapesThePrometheusEndpointWithTheBootstrapToken() {
        Map<String, Object> endpoint = maps(kubernetes("ServiceMonitor"), "spec.endpoints").get(0);
        assertThat(string(endpoint, "path")).isEqualTo(Endpoints.PROMETHEUS);
        assertThat(containerPort(servicePort(string(endpoint, "port")))).isEqualTo(Endpoints.SERVER_PORT);
        assertThat(string(endpoint, "authorization.type")).isEqualTo("Bearer");
        assertThat(map(endpoint, "authorization.credentials"))
                .isEqualTo(map(variableSource("SPILLOVER_BOOTSTRAP_ADMIN_TOKEN"), "secretKeyRef"));

        Map<String, Object> annotations = map(pod, "metadata.annotations");
        assertThat(annotations).containsEntry("prometheus.io/scrape", "true")
                .containsEntry("prometheus.io/path", Endpoints.PROMETHEUS)
                .containsEntry("prometheus.io/port", Endpoints.SERVER_PORT);
    }

    @Test
    void everySecretReferenceNamesAKeyTheSecretDefines() {
        List<Map<String, Object>> references = new ArrayList<>();
        maps(container, "env").stream().map(v -> v.get("valueFrom")).filter(Objects::nonNull)
                .map(source -> map(source, "secretKeyRef")).forEach(references::add);
        references.add(map(maps(kubernetes("ServiceMonitor"), "spec.endpoints").get(0), "authorization.credentials"));

        assertThat(references).hasSize(6).allSatisfy(reference -> {
            assertThat(reference.get("name")).isEqualTo(string(secret, "metadata.name"));
            assertThat(map(secret, "stringData")).containsKey((String) reference.get("key"));
        });
    }

    @Test
    void theSecretShipsPlaceholdersNotSecrets() {
        assertThat(secret).doesNotContainKey("data");
        assertThat(map(secret, "stringData").values()).allSatisfy(value -> assertThat((String) value).contains("CHANGE-ME"));
        // Too short for a token: a forgotten placeholder stops the start instead of opening the platform.
        assertThat(string(secret, "stringData.bootstrap-admin-token")).hasSizeLessThan(16);
        // Not base64 of 32 bytes: a forgotten placeholder stops the start instead of sealing secrets under it.
        assertThat(string(secret, "stringData.webhooks-secret-key")).isEqualTo("CHANGE-ME");
    }

    @Test
    void runsAsTheImagesNonRootUser() {
        assertThat(at(pod, "spec.securityContext.runAsNonRoot")).isEqualTo(true);
        String imageUser = Dockerfile.read().runtime().only("USER").arguments();
        assertThat(imageUser).isEqualTo(at(pod, "spec.securityContext.runAsUser") + ":" + at(pod, "spec.securityContext.runAsGroup"));
        assertThat((Integer) at(pod, "spec.securityContext.runAsUser")).isPositive();
        assertThat(at(container, "securityContext.allowPrivilegeEscalation")).isEqualTo(false);
        assertThat(list(container, "securityContext.capabilities.drop")).containsExactly("ALL");
    }

    @Test
    void writesOnlyToEmptyDirsUnderAReadOnlyRootFileSystem() {
        assertThat(at(container, "securityContext.readOnlyRootFilesystem")).isEqualTo(true);
        Map<String, String> mounts = new HashMap<>();
        maps(container, "volumeMounts").forEach(m -> mounts.put((String) m.get("mountPath"), (String) m.get("name")));
        List<String> emptyDirs = maps(pod, "spec.volumes").stream().filter(v -> v.containsKey("emptyDir"))
                .map(v -> (String) v.get("name")).toList();

        // Spring Boot and Tomcat write to java.io.tmpdir; Spillover to spillover.data-dir.
        assertThat(mounts).containsKeys("/tmp", variable("SPILLOVER_DATA_DIR"));
        assertThat(emptyDirs).contains(mounts.get("/tmp"), mounts.get(variable("SPILLOVER_DATA_DIR")));
    }

    @Test
    void givesGracefulShutdownTheTimeItTakes() {
        List<Object> preStop = list(container, "lifecycle.preStop.exec.command");
        assertThat(preStop.get(0)).isEqualTo("sleep");
        Duration drain = Duration.ofSeconds(Long.parseLong((String) preStop.get(1)));
        Duration shutdown = DurationStyle.detectAndParse(variable("SPRING_LIFECYCLE_TIMEOUT_PER_SHUTDOWN_PHASE"));

        assertThat(Duration.ofSeconds((Integer) at(pod, "spec.terminationGracePeriodSeconds")))
                .isGreaterThan(drain.plus(shutdown));
    }

    @Test
    void reservesAndLimitsCpuAndMemory() {
        assertThat(map(container, "resources.requests")).containsKeys("cpu", "memory");
        assertThat(map(container, "resources.limits")).containsKeys("cpu", "memory");
        // Guaranteed memory: the heap is a share of the limit, and a request below it invites eviction.
        assertThat(at(container, "resources.limits.memory")).isEqualTo(at(container, "resources.requests.memory"));
    }

    @Test
    void selectorsFindTheDeploymentsPods() {
        Map<String, Object> podLabels = map(pod, "metadata.labels");
        assertThat(podLabels).containsAllEntriesOf(map(deployment, "spec.selector.matchLabels"));
        assertThat(podLabels).containsAllEntriesOf(map(kubernetes("Service"), "spec.selector"));
        assertThat(podLabels).containsAllEntriesOf(map(kubernetes("PodDisruptionBudget"), "spec.selector.matchLabels"));
        assertThat(map(kubernetes("Service"), "metadata.labels"))
                .containsAllEntriesOf(map(kubernetes("ServiceMonitor"), "spec.selector.matchLabels"));
        assertThat(at(pod, "spec.serviceAccountName")).isEqualTo(at(kubernetes("ServiceAccount"), "metadata.name"));
    }

    @Test
    void theKustomizationListsEveryManifest() {
        assertThat(list(Manifests.kustomization(), "resources")).containsExactlyInAnyOrderElementsOf(Manifests.kubernetesFiles());
    }

    private String variable(String name) {
        return maps(container, "env").stream().filter(v -> name.equals(v.get("name"))).map(v -> (String) v.get("value"))
                .findFirst().orElseThrow(() -> new AssertionError("the container does not set " + name));
    }

    private Map<String, Object> variableSource(String name) {
        return maps(container, "env").stream().filter(v -> name.equals(v.get("name"))).map(v -> map(v.get("valueFrom")))
                .findFirst().orElseThrow(() -> new AssertionError("the container does not set " + name));
    }

    /** The number of a container port given by name or number. */
    private String containerPort(String nameOrNumber) {
        return maps(container, "ports").stream()
                .filter(p -> nameOrNumber.equals(p.get("name")) || nameOrNumber.equals(String.valueOf(p.get("containerPort"))))
                .map(p -> String.valueOf(p.get("containerPort"))).findFirst()
                .orElseThrow(() -> new AssertionError("no container port " + nameOrNumber));
    }

    /** The target port of the Service's port of this name. */
    private String servicePort(String name) {
        return maps(kubernetes("Service"), "spec.ports").stream().filter(p -> name.equals(p.get("name")))
                .map(p -> String.valueOf(p.get("targetPort"))).findFirst()
                .orElseThrow(() -> new AssertionError("the Service has no port " + name));
    }
}
