package io.spillover.deploy;

import static io.spillover.deploy.Manifests.container;
import static io.spillover.deploy.Manifests.kubernetes;
import static io.spillover.deploy.Manifests.maps;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every environment variable that compose, the Kubernetes manifests and the image give Spillover sets a
 * property the application knows: a misspelled or retired setting would otherwise be ignored without a
 * word, and the replica would run on a default nobody chose.
 */
class DeploymentSettingsTest {

    private static final KnownProperties KNOWN = KnownProperties.onClassPath();

    @Test
    void everyVariableTheComposeReplicasSetIsAPropertyTheApplicationKnows() {
        var replicas = Manifests.composeReplicas();
        assertThat(replicas).hasSize(2);
        replicas.forEach((name, service) -> assertThat(KNOWN.unknown(Manifests.environment(service).keySet()))
                .as("unknown settings of compose service %s", name).isEmpty());
    }

    @Test
    void everyVariableTheDeploymentSetsIsAPropertyTheApplicationKnows() {
        assertThat(variablesOf(kubernetes("Deployment"))).contains("SPRING_DATASOURCE_URL", "SPILLOVER_PROVIDER");
        assertThat(KNOWN.unknown(variablesOf(kubernetes("Deployment")))).isEmpty();
    }

    @Test
    void everyVariableTheImageSetsIsAPropertyTheApplicationKnows() {
        assertThat(KNOWN.unknown(Dockerfile.read().runtime().environment().keySet())).isEmpty();
    }

    @Test
    void aMisspelledVariableInTheDeploymentIsReported() {
        Map<String, Object> deployment = kubernetes("Deployment");
        Map<String, Object> container = maps(deployment, "spec.template.spec.containers").get(0);
        Manifests.list(container, "env").add(Map.of("name", "SPILLOVER_SCHEDULING_SWEEP_INTERVALL", "value", "30s"));

        assertThat(KNOWN.unknown(variablesOf(deployment))).containsExactly("SPILLOVER_SCHEDULING_SWEEP_INTERVALL");
    }

    @Test
    void theDeploymentNamesEachVariableItSets() {
        // envFrom would set variables named only in a Secret or ConfigMap, out of this test's sight.
        assertThat(container()).doesNotContainKey("envFrom");
    }

    private static List<String> variablesOf(Map<String, Object> deployment) {
        var names = new ArrayList<String>();
        for (Map<String, Object> container : maps(deployment, "spec.template.spec.containers")) {
            maps(container, "env").forEach(variable -> names.add((String) variable.get("name")));
        }
        return names;
    }
}
