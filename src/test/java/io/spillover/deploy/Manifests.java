package io.spillover.deploy;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.yaml.snakeyaml.Yaml;

/**
 * The compose file and the Kubernetes manifests under {@code deploy/}, parsed as plain YAML (nothing here
 * can run Docker or Kubernetes), with a few steps to walk them.
 */
final class Manifests {

    static final Path COMPOSE = Path.of("deploy", "docker-compose.yml");
    static final Path KUBERNETES = Path.of("deploy", "kubernetes");

    private Manifests() {
    }

    static Map<String, Object> compose() {
        return map(load(COMPOSE).get(0));
    }

    /** The Kubernetes files' names, as kustomization.yaml would list them. */
    static List<String> kubernetesFiles() {
        try (Stream<Path> files = Files.list(KUBERNETES)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(f -> f.endsWith(".yaml") && !f.equals("kustomization.yaml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + KUBERNETES, e);
        }
    }

    static Map<String, Object> kustomization() {
        return map(load(KUBERNETES.resolve("kustomization.yaml")).get(0));
    }

    /** Every Kubernetes object in the manifests. */
    static List<Map<String, Object>> kubernetes() {
        var objects = new ArrayList<Map<String, Object>>();
        for (String file : kubernetesFiles()) {
            load(KUBERNETES.resolve(file)).stream().filter(o -> o != null).map(Manifests::map).forEach(objects::add);
        }
        return objects;
    }

    /** The one object of this kind. */
    static Map<String, Object> kubernetes(String kind) {
        List<Map<String, Object>> found = kubernetes().stream().filter(o -> kind.equals(o.get("kind"))).toList();
        if (found.size() != 1) {
            throw new IllegalStateException(found.size() + " objects of kind " + kind + " in " + KUBERNETES);
        }
        return found.get(0);
    }

    private static List<Object> load(Path file) {
        try (Reader reader = Files.newBufferedReader(file)) {
            var documents = new ArrayList<Object>();
            new Yaml().loadAll(reader).forEach(documents::add);
            return documents;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** The value at a dotted path of map keys ({@code spec.template.spec}). */
    static Object at(Object node, String path) {
        Object current = node;
        for (String key : path.split("\\.")) {
            if (!(current instanceof Map<?, ?> map) || !map.containsKey(key)) {
                throw new IllegalStateException("no " + path + " (stopped at " + key + ")");
            }
            current = map.get(key);
        }
        return current;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object node) {
        if (!(node instanceof Map)) {
            throw new IllegalStateException("expected a mapping, found " + node);
        }
        return (Map<String, Object>) node;
    }

    static Map<String, Object> map(Object node, String path) {
        return map(at(node, path));
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object node, String path) {
        Object found = at(node, path);
        if (!(found instanceof List)) {
            throw new IllegalStateException("expected a list at " + path + ", found " + found);
        }
        return (List<Object>) found;
    }

    static List<Map<String, Object>> maps(Object node, String path) {
        return list(node, path).stream().map(Manifests::map).toList();
    }

    static String string(Object node, String path) {
        return String.valueOf(at(node, path));
    }

    /** The Deployment's one container. */
    static Map<String, Object> container() {
        List<Map<String, Object>> containers = maps(kubernetes("Deployment"), "spec.template.spec.containers");
        if (containers.size() != 1) {
            throw new IllegalStateException("the Deployment has " + containers.size() + " containers");
        }
        return containers.get(0);
    }

    /** The compose services that run Spillover: those built from deploy/Dockerfile. */
    static Map<String, Map<String, Object>> composeReplicas() {
        var replicas = new LinkedHashMap<String, Map<String, Object>>();
        map(compose(), "services").forEach((name, service) -> {
            Object build = map(service).get("build");
            if (build != null && "deploy/Dockerfile".equals(map(build).get("dockerfile"))) {
                replicas.put(name, map(service));
            }
        });
        return replicas;
    }

    /** A compose service's environment names, whether written as a mapping or as a list of KEY=VALUE. */
    static Map<String, String> environment(Map<String, Object> service) {
        var environment = new LinkedHashMap<String, String>();
        Object declared = service.get("environment");
        if (declared instanceof Map<?, ?> mapping) {
            mapping.forEach((k, v) -> environment.put(String.valueOf(k), v == null ? null : String.valueOf(v)));
        } else if (declared instanceof List<?> entries) {
            for (Object entry : entries) {
                String[] pair = String.valueOf(entry).split("=", 2);
                environment.put(pair[0], pair.length > 1 ? pair[1] : null);
            }
        }
        return environment;
    }
}
