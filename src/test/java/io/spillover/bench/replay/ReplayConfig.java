package io.spillover.bench.replay;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The fleet, plans and policies of a replay, as written in a small JSON file (see
 * {@code src/bench/replay-fleet.json}).
 *
 * @param types          the instance types in the order jobs fall back through them, each with how its run
 *                       times follow from the trace and how often it is a job's first choice
 * @param teamQuotaShare each team's quota for a type, as a share of the type's instances (on demand and in
 *                       plans), rounded up; 1 lets one team take a whole type
 * @param polling        the variants of policy (c) to replay
 */
public record ReplayConfig(String description, long seed, double teamQuotaShare, List<TypeSpec> types,
                           List<OnDemand> onDemand, List<Plan> plans, List<Policy.Polling> polling) {

    /**
     * @param durationColumn    which trace column the type's run times follow: k80, p100 or v100
     * @param speedup           how many times faster than that column the type runs a job
     * @param firstChoiceWeight relative share of jobs whose first choice this type is
     */
    public record TypeSpec(String instanceType, String durationColumn, double speedup, double firstChoiceWeight) {

        public TypeSpec {
            Objects.requireNonNull(instanceType, "instanceType");
            Generation.named(durationColumn);
            if (!(speedup > 0) || firstChoiceWeight < 0) {
                throw new IllegalArgumentException(instanceType + ": speedup must be > 0 and the weight >= 0");
            }
        }

        public Generation generation() {
            return Generation.named(durationColumn);
        }
    }

    public record OnDemand(String region, String instanceType, int instances) {

        public OnDemand {
            Objects.requireNonNull(region, "region");
            Objects.requireNonNull(instanceType, "instanceType");
            if (instances < 0) {
                throw new IllegalArgumentException("on-demand " + instanceType + ": instances must be >= 0");
            }
        }
    }

    /** A training plan, always ACTIVE for the whole replay; only its teams see it. */
    public record Plan(String name, String instanceType, String region, int instances, List<String> teams) {

        public Plan {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(instanceType, "instanceType");
            Objects.requireNonNull(region, "region");
            teams = List.copyOf(teams);
            if (instances < 1) {
                throw new IllegalArgumentException("plan " + name + ": instances must be >= 1");
            }
        }
    }

    public ReplayConfig {
        types = List.copyOf(types);
        onDemand = List.copyOf(onDemand);
        plans = plans == null ? List.of() : List.copyOf(plans);
        polling = polling == null ? List.of() : List.copyOf(polling);
        if (types.isEmpty() || !(teamQuotaShare > 0) || teamQuotaShare > 1) {
            throw new IllegalArgumentException("a replay needs at least one type and a quota share in (0, 1]");
        }
        if (types.stream().mapToDouble(TypeSpec::firstChoiceWeight).sum() <= 0) {
            throw new IllegalArgumentException("at least one type needs a first-choice weight above 0");
        }
    }

    /** The policies to replay: single types, preference lists, then each polling variant. */
    public List<Policy> policies() {
        var all = new ArrayList<Policy>(List.of(new Policy.SingleType(), new Policy.PreferenceLists()));
        all.addAll(polling);
        return all;
    }

    public ReplayConfig withPolling(List<Policy.Polling> variants) {
        return new ReplayConfig(description, seed, teamQuotaShare, types, onDemand, plans, variants);
    }

    public static ReplayConfig read(Path json) {
        try (InputStream in = Files.newInputStream(json)) {
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the replay configuration " + json, e);
        }
    }

    public static ReplayConfig read(InputStream json) {
        // Jackson 3 ignores unknown properties by default; a misspelt key must not pass unnoticed
        return JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build()
                .readValue(json, ReplayConfig.class);
    }
}
