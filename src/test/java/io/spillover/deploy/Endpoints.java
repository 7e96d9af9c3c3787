package io.spillover.deploy;

/**
 * What the running application serves to orchestrators: Spring Boot's actuator under {@code /actuator}
 * with the Kubernetes probe groups switched on ({@code management.endpoint.health.probes.enabled}), on the
 * server port {@code SERVER_PORT}. {@link ContainerImageIT} asks a running instance for each.
 */
final class Endpoints {

    static final String LIVENESS = "/actuator/health/liveness";
    static final String READINESS = "/actuator/health/readiness";
    static final String PROMETHEUS = "/actuator/prometheus";
    static final String SERVER_PORT = "8080";

    private Endpoints() {
    }
}
