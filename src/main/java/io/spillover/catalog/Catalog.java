package io.spillover.catalog;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The instance types Spillover knows; anything else is rejected. Immutable. */
public final class Catalog {

    static final List<String> COLUMNS = List.of("instanceType", "family", "acceleratorKind", "acceleratorModel",
            "acceleratorCount", "acceleratorMemoryGiB", "vcpus", "memoryGiB", "efa", "training", "processing",
            "cudaComputeCapability", "cudaDriver");

    private final Map<String, InstanceType> types;
    private final List<InstanceType> ordered;

    public Catalog(Collection<InstanceType> types) {
        var byName = new LinkedHashMap<String, InstanceType>();
        for (InstanceType type : types) {
            if (byName.put(type.name(), type) != null) {
                throw new IllegalArgumentException("instance type listed twice: " + type.name());
            }
        }
        this.types = Map.copyOf(byName);
        this.ordered = List.copyOf(byName.values());
    }

    public Optional<InstanceType> find(String name) {
        return Optional.ofNullable(name).map(types::get);
    }

    public InstanceType get(String name) {
        InstanceType type = types.get(name);
        if (type == null) {
            throw new IllegalArgumentException("unknown instance type " + name);
        }
        return type;
    }

    public boolean contains(String name) {
        return name != null && types.containsKey(name);
    }

    public List<InstanceType> all() {
        return ordered;
    }

    /** This catalog with the driver branch of each listed family replaced (a platform knows its hosts). */
    public Catalog withCudaDrivers(Map<String, Integer> driverByFamily) {
        return new Catalog(ordered.stream().map(type -> driverByFamily.containsKey(type.family())
                ? type.withCudaDriver(driverByFamily.get(type.family())) : type).toList());
    }

    /** Reads the catalog's CSV form (header line, then one type per line). */
    public static Catalog readCsv(InputStream csv) {
        try (var reader = new BufferedReader(new InputStreamReader(csv, StandardCharsets.UTF_8))) {
            String header = reader.readLine();
            if (header == null || !Arrays.asList(header.split(",", -1)).equals(COLUMNS)) {
                throw new IllegalArgumentException("catalog header must be " + String.join(",", COLUMNS));
            }
            return new Catalog(reader.lines().filter(line -> !line.isBlank()).map(Catalog::parse).toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InstanceType parse(String line) {
        String[] f = line.split(",", -1);
        if (f.length != COLUMNS.size()) {
            throw new IllegalArgumentException("catalog line needs " + COLUMNS.size() + " columns: " + line);
        }
        try {
            return new InstanceType(f[0], f[1], AcceleratorKind.valueOf(f[2]), emptyToNull(f[3]),
                    Integer.parseInt(f[4]), Integer.parseInt(f[5]), Integer.parseInt(f[6]), Integer.parseInt(f[7]),
                    bool(f[8]), bool(f[9]), bool(f[10]), emptyToNull(f[11]),
                    f[12].isEmpty() ? null : Integer.valueOf(f[12]));
        } catch (IllegalArgumentException e) {
            // valueOf and parseInt say neither where nor what; name the line so the file is fixed quickly
            throw new IllegalArgumentException("catalog line " + line + ": " + e.getMessage(), e);
        }
    }

    private static boolean bool(String value) {
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("expected true or false, not " + value);
        };
    }

    private static String emptyToNull(String value) {
        return value.isEmpty() ? null : value;
    }
}
