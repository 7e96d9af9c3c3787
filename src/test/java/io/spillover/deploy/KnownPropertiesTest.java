package io.spillover.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The check behind {@link DeploymentSettingsTest}: environment variables bind to properties as Spring's
 * relaxed binding does, a misspelled one is reported, and every property the code reads is in the metadata
 * (else a correct setting would be reported as unknown).
 */
class KnownPropertiesTest {

    private static final KnownProperties KNOWN = KnownProperties.onClassPath();
    private static final Path MAIN_CODE = Path.of("src", "main", "java");
    private static final Path APPLICATION_YML = Path.of("src", "main", "resources", "application.yml");

    /** {@code ${name}} and {@code ${name:default}} placeholders; {@code bind("name")} and {@code name = "name"} of conditions. */
    private static final List<Pattern> PROPERTY_READS = List.of(
            Pattern.compile("\\$\\{([A-Za-z][A-Za-z0-9._-]*)"),
            Pattern.compile("\\.bind\\(\\s*\"([a-z][a-z0-9.-]*)\""),
            Pattern.compile("name\\s*=\\s*\"(spillover\\.[a-z0-9.-]*)\""));

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
        var read = new TreeSet<String>();
        try (Stream<Path> sources = Files.walk(MAIN_CODE)) {
            for (Path source : sources.filter(f -> f.toString().endsWith(".java")).toList()) {
                read.addAll(propertyReads(Files.readString(source)));
            }
        }
        read.addAll(propertyReads(Files.readString(APPLICATION_YML)));

        assertThat(read).contains("spillover.bootstrap-admin-token", "spillover.data-dir", "SERVER_PORT");
        assertThat(read).filteredOn(this::undeclared).as("properties read by the code but not in configuration metadata"
                + " (add @Value keys to META-INF/additional-spring-configuration-metadata.json)").isEmpty();
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

    private static List<String> propertyReads(String text) {
        var names = new ArrayList<String>();
        for (Pattern pattern : PROPERTY_READS) {
            Matcher matcher = pattern.matcher(text);
            while (matcher.find()) {
                names.add(matcher.group(1));
            }
        }
        return names;
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
