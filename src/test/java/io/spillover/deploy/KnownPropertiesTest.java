package io.spillover.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The check behind {@link DeploymentSettingsTest}: environment variables bind to properties as Spring's
 * relaxed binding does, a misspelled one is reported, and every property the code reads is in the metadata
 * (else a correct setting would be reported as unknown).
 */
class KnownPropertiesTest {

    private static final KnownProperties KNOWN = KnownProperties.onClassPath();
    private static final Path APPLICATION_YML = KnownProperties.APPLICATION_YML;
    private static final Path ADDITIONAL_METADATA = Path.of("src", "main", "resources", "META-INF",
            "additional-spring-configuration-metadata.json");

    @Test
    void bindsAVariableToThePropertyItSets() {
        assertThat(KNOWN.propertyOf("SPILLOVER_SCHEDULING_SWEEP_INTERVAL")).contains("spillover.scheduling.sweep-interval");
        assertThat(KNOWN.propertyOf("SPILLOVER_BOOTSTRAP_ADMIN_TOKEN")).contains("spillover.bootstrap-admin-token");
        assertThat(KNOWN.propertyOf("SPRING_DATASOURCE_URL")).contains("spring.datasource.url");
        assertThat(KNOWN.propertyOf("SERVER_PORT")).contains("server.port");
    }

    @Test
    void bindsAVariableToTheMapOrListItIsAnEntryOf() {
        assertThat(KNOWN.propertyOf("SPILLOVER_SAGEMAKER_FLEET_0_INSTANCE_TYPE")).contains("spillover.sagemaker.fleet");
        assertThat(KNOWN.propertyOf("SPILLOVER_CATALOG_CUDA_DRIVERS_P5")).contains("spillover.catalog.cuda-drivers");
        assertThat(KNOWN.propertyOf("SPRING_SECURITY_OAUTH2_CLIENT_REGISTRATION_SSO_CLIENT_ID"))
                .contains("spring.security.oauth2.client.registration");
    }

    @Test
    void reportsAMisspelledVariable() {
        assertThat(KNOWN.unknown(List.of("SPILLOVER_SCHEDULING_SWEEP_INTERVAL", "SPILLOVER_SCHEDULING_SWEEP_INTERVALL",
                "SPRING_DATASOURCE_URI", "SPILLOVER_BOOTSTRAP_TOKEN")))
                .containsExactly("SPILLOVER_SCHEDULING_SWEEP_INTERVALL", "SPRING_DATASOURCE_URI", "SPILLOVER_BOOTSTRAP_TOKEN");
    }

    @Test
    void reportsAVariableBelowAPropertyThatHoldsNoEntries() {
        assertThat(KNOWN.unknown(List.of("SPILLOVER_PROVIDER_NAME", "SPILLOVER_DATA_DIR_PATH")))
                .containsExactly("SPILLOVER_PROVIDER_NAME", "SPILLOVER_DATA_DIR_PATH");
    }

    @Test
    void everyPropertyTheCodeReadsIsDeclared() throws IOException {
        Set<String> read = KnownProperties.readByCode();

        assertThat(read).contains("spillover.bootstrap-admin-token", "spillover.data-dir", "SERVER_PORT");
        assertThat(read).filteredOn(this::undeclared).as("properties read by the code but not in configuration metadata"
                + " (add @Value keys to META-INF/additional-spring-configuration-metadata.json)").isEmpty();
    }

    /**
     * The metadata written by hand declares the {@code @Value} keys; one the code no longer reads would keep a dead
     * setting declared, and documented (docs/configuration.md lists what is declared).
     */
    @Test
    void everyPropertyDeclaredByHandIsStillReadByTheCode() throws IOException {
        var declared = new TreeSet<String>();
        for (JsonNode property : JsonMapper.builder().build().readTree(Files.readString(ADDITIONAL_METADATA))
                .path("properties")) {
            declared.add(property.path("name").asString());
        }
        Set<String> read = KnownProperties.readByCode();

        assertThat(declared).contains("spillover.provider", "spillover.data-dir");
        assertThat(declared).filteredOn(name -> !read.contains(name))
                .as("properties in additional-spring-configuration-metadata.json that no code reads").isEmpty();
    }

    @Test
    void everyPropertyApplicationYmlSetsIsDeclared() throws IOException {
        Map<String, Object> yml;
        try (Reader reader = Files.newBufferedReader(APPLICATION_YML)) {
            yml = new Yaml().load(reader);
        }
        List<String> keys = new ArrayList<>();
        flatten("", yml, keys);

        assertThat(keys).contains("spillover.scheduling.sweep-interval", "management.endpoint.health.probes.enabled");
        assertThat(keys).filteredOn(this::undeclared).as("keys in application.yml that no metadata declares").isEmpty();
    }

    private boolean undeclared(String name) {
        boolean variable = name.equals(name.toUpperCase());
        return variable ? KNOWN.propertyOf(name).isEmpty() : !KNOWN.declares(name);
    }

    private static void flatten(String prefix, Object node, List<String> keys) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> flatten(prefix.isEmpty() ? String.valueOf(key) : prefix + "." + key, value, keys));
        } else if (node instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                flatten(prefix + "[" + i + "]", list.get(i), keys);
            }
        } else {
            keys.add(prefix);
        }
    }
}
