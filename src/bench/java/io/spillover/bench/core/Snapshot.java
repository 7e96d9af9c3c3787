package io.spillover.bench.core;

import io.spillover.catalog.Catalog;
import io.spillover.catalog.JobKind;
import io.spillover.placement.Capacity;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.OfferingState;
import io.spillover.placement.PlacementRequest;
import io.spillover.placement.PlanState;
import io.spillover.placement.PlanStatus;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.PreferenceList;
import io.spillover.placement.TeamState;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * A capacity snapshot of a realistic size for the core benchmarks: 100 offerings (24 GPU and Trainium
 * types in 4 regions on demand, plus an H100 plan per region) and 50 teams with a quota on every type.
 * Built the same way for every fork, so runs compare.
 */
final class Snapshot {

    static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    static final List<String> REGIONS = List.of("us-east-1", "us-west-2", "eu-west-1", "ap-northeast-1");
    static final List<String> TYPES = List.of("ml.g4dn.12xlarge", "ml.g5.2xlarge", "ml.g5.12xlarge",
            "ml.g5.24xlarge", "ml.g5.48xlarge", "ml.g6.12xlarge", "ml.g6.24xlarge", "ml.g6.48xlarge",
            "ml.g6e.2xlarge", "ml.g6e.12xlarge", "ml.g6e.24xlarge", "ml.g6e.48xlarge", "ml.p3.8xlarge",
            "ml.p3.16xlarge", "ml.p3dn.24xlarge", "ml.p4d.24xlarge", "ml.p4de.24xlarge", "ml.p5.48xlarge",
            "ml.p5e.48xlarge", "ml.p5en.48xlarge", "ml.p6-b200.48xlarge", "ml.trn1.32xlarge", "ml.trn1n.32xlarge",
            "ml.trn2.48xlarge");
    static final int TEAMS = 50;
    static final int INSTANCES = 16;
    static final int QUOTA = 16;
    static final String P5 = "ml.p5.48xlarge";

    final Catalog catalog = catalog();
    final List<OfferingState> offerings = new ArrayList<>();
    final List<PlanState> plans = new ArrayList<>();
    final List<TeamState> teams = new ArrayList<>();

    /**
     * @param freePerOffering instances left free on each on-demand offering; the named exceptions below
     *                        make every refusal reason of the core appear in the 5-entry lists
     */
    Snapshot(int freePerOffering) {
        for (String region : REGIONS) {
            for (String type : TYPES) {
                OfferingKey key = OfferingKey.onDemand(region, type);
                if (key.equals(OfferingKey.onDemand("us-west-2", P5))) {
                    offerings.add(OfferingState.of(key, INSTANCES, INSTANCES)); // full
                } else if (key.equals(OfferingKey.onDemand("us-east-1", "ml.p4d.24xlarge"))) {
                    offerings.add(new OfferingState(key, INSTANCES, 0, NOW.plusSeconds(180),
                            "an insufficient-capacity error"));
                } else {
                    offerings.add(OfferingState.of(key, INSTANCES, INSTANCES - freePerOffering));
                }
            }
            var plan = new PlanState("h100-" + region, P5, region, PlanStatus.ACTIVE, NOW.minusSeconds(86_400),
                    NOW.plusSeconds(30 * 86_400L), Set.copyOf(IntStream.range(0, 10).mapToObj(Snapshot::team).toList()));
            plans.add(plan);
            offerings.add(OfferingState.of(plan.offering(), 8, 7)); // one instance free: a 2-instance job waits
        }
        for (int t = 0; t < TEAMS; t++) {
            Map<String, Integer> limits = new HashMap<>();
            TYPES.forEach(type -> limits.put(type, QUOTA));
            // team-07 has used up its g6e quota: the quota reason appears
            Map<String, Integer> used = t == 7 ? Map.of("ml.g6e.48xlarge", QUOTA) : Map.of("ml.g5.48xlarge", 2);
            teams.add(new TeamState(team(t), limits, used, 4096, 128, 64, 3, false));
        }
    }

    static String team(int index) {
        return "team-%02d".formatted(index);
    }

    /** A fresh working capacity; a queue pass books into it, so each pass needs its own. */
    Capacity capacity() {
        return new Capacity(offerings, plans, teams);
    }

    static PlacementRequest request(String team, PreferenceEntry... entries) {
        return new PlacementRequest(team, JobKind.TRAINING, new PreferenceList(List.of(entries)));
    }

    static PreferenceEntry entry(String type, String region, String plan, int count) {
        return new PreferenceEntry(type, count, region, plan);
    }

    private static Catalog catalog() {
        try (InputStream csv = Snapshot.class.getResourceAsStream("/catalog/instance-types.csv")) {
            return Catalog.readCsv(csv);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
