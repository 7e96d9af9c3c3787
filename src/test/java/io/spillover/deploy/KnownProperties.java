package io.spillover.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The configuration properties the application knows, as Spring configuration metadata on the class path
 * declares them: Spring Boot's jars ship theirs, ours is generated from the {@code @ConfigurationProperties}
 * records and merged with {@code additional-spring-configuration-metadata.json} for {@code @Value} keys.
 * An environment variable that binds to none of them is a setting the application silently ignores. The
 * configuration reference ({@code docs/configuration.md}, checked by {@code DocsTest}) lists the same properties.
 */
public final class KnownProperties {

    private static final Path MAIN_CODE = Path.of("src", "main", "java");
    static final Path APPLICATION_YML = Path.of("src", "main", "resources", "application.yml");

    /** {@code ${name}} and {@code ${name:default}} placeholders; {@code bind("name")} and {@code name = "name"} of conditions. */
    private static final List<Pattern> PROPERTY_READS = List.of(
            Pattern.compile("\\$\\{([A-Za-z][A-Za-z0-9._-]*)"),
            Pattern.compile("\\.bind\\(\\s*\"([a-z][a-z0-9.-]*)\""),
            Pattern.compile("name\\s*=\\s*\"(spillover\\.[a-z0-9.-]*)\""));

    private static final List<String> METADATA = List.of("META-INF/spring-configuration-metadata.json",
            "META-INF/additional-spring-configuration-metadata.json");

    /** One declared property; maps and collections also take every name below theirs ({@code x.key}, {@code x[0].y}). */
    private record Known(String name, ConfigurationPropertyName key, boolean holdsEntries) {
    }

    private final List<Known> properties;

    private KnownProperties(List<Known> properties) {
        this.properties = List.copyOf(properties);
    }

    public static KnownProperties onClassPath() {
        var mapper = JsonMapper.builder().build();
        var properties = new ArrayList<Known>();
        for (String resource : METADATA) {
            for (URL url : resources(resource)) {
                try (InputStream in = url.openStream()) {
                    for (JsonNode property : mapper.readTree(in).path("properties")) {
                        known(property).ifPresent(properties::add);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read " + url, e);
                }
            }
        }
        return new KnownProperties(properties);
    }

    private static Optional<Known> known(JsonNode property) {
        String name = property.path("name").asString();
        String type = property.path("type").asString("");
        return Optional.ofNullable(ConfigurationPropertyName.ofIfValid(name)).map(key -> new Known(name, key,
                type.startsWith("java.util.Map") || type.startsWith("java.util.List") || type.startsWith("java.util.Set")
                        || type.startsWith("java.util.Collection") || type.endsWith("[]")));
    }

    private static List<URL> resources(String name) {
        try {
            return Collections.list(KnownProperties.class.getClassLoader().getResources(name));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + name, e);
        }
    }

    /** Whether a property of this name (canonical form, {@code spillover.data-dir}) is declared. */
    boolean declares(String name) {
        return boundBy(ConfigurationPropertyName.of(name)).isPresent();
    }

    /**
     * The declared property an environment variable sets under Spring's relaxed binding
     * ({@code SPILLOVER_SCHEDULING_SWEEP_INTERVAL} sets {@code spillover.scheduling.sweep-interval}), worked
     * out by Spring's own mapping of the system environment.
     */
    Optional<String> propertyOf(String environmentVariable) {
        ConfigurationPropertySource environment = ConfigurationPropertySource.from(new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.of(environmentVariable, "set")));
        return properties.stream()
                .filter(p -> environment.getConfigurationProperty(p.key()) != null
                        || p.holdsEntries() && environment.containsDescendantOf(p.key()) == ConfigurationPropertyState.PRESENT)
                .map(Known::name)
                .findFirst();
    }

    /** The declared property a name in canonical form is, or lies below (a map entry, a list element). */
    private Optional<String> boundBy(ConfigurationPropertyName name) {
        return properties.stream()
                .filter(p -> p.key().equals(name) || p.holdsEntries() && p.key().isAncestorOf(name))
                .map(Known::name)
                .findFirst();
    }

    /**
     * Every declared property whose name starts with the prefix ({@code spillover.}): the properties the code binds,
     * from its {@code @ConfigurationProperties} records and its {@code @Value} keys.
     */
    public Set<String> names(String prefix) {
        var names = new TreeSet<String>();
        properties.stream().map(Known::name).filter(n -> n.startsWith(prefix)).forEach(names::add);
        return names;
    }

    /**
     * The property names the code reads by name, outside {@code @ConfigurationProperties} records: placeholders
     * in {@code src/main/java} and {@code application.yml}, binder calls and conditions' names.
     */
    static Set<String> readByCode() throws IOException {
        var read = new TreeSet<String>();
        try (Stream<Path> sources = Files.walk(MAIN_CODE)) {
            for (Path source : sources.filter(f -> f.toString().endsWith(".java")).toList()) {
                read.addAll(propertyReads(Files.readString(source)));
            }
        }
        read.addAll(propertyReads(Files.readString(APPLICATION_YML)));
        return read;
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

    /** The variables, in the order given, that set no property the application knows. */
    List<String> unknown(Collection<String> environmentVariables) {
        return environmentVariables.stream().filter(v -> propertyOf(v).isEmpty()).toList();
    }
}
