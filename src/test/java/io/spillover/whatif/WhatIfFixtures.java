package io.spillover.whatif;

import io.spillover.catalog.Catalog;
import io.spillover.catalog.JobKind;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.PlanState;
import io.spillover.placement.PlanStatus;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.QueuePolicy;
import io.spillover.replay.Fleet;
import io.spillover.replay.ReplayJob;
import io.spillover.replay.TeamRules;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A small live configuration for the what-if module's unit tests. */
final class WhatIfFixtures {

    static final Catalog CATALOG = Catalog.readCsv(WhatIfFixtures.class.getResourceAsStream("/catalog/instance-types.csv"));
    static final String EAST = "us-east-1";
    static final String WEST = "us-west-2";
    static final String P5 = "ml.p5.48xlarge";
    static final String P4D = "ml.p4d.24xlarge";
    static final String G5 = "ml.g5.48xlarge";
    static final String G6E = "ml.g6e.48xlarge";
    static final String M5 = "ml.m5.xlarge";

    private WhatIfFixtures() {
    }

    /** p5, p4d and g5 on demand in us-east-1, p5 in us-west-2, plan "h100" of 2 p5 in us-west-2 for vision. */
    static Scenario baseline() {
        var totals = new LinkedHashMap<OfferingKey, Integer>();
        totals.put(OfferingKey.onDemand(EAST, P5), 1);
        totals.put(OfferingKey.onDemand(EAST, P4D), 4);
        totals.put(OfferingKey.onDemand(EAST, G5), 8);
        totals.put(OfferingKey.onDemand(WEST, P5), 2);
        var plan = new PlanState("h100", P5, WEST, PlanStatus.ACTIVE, Instant.EPOCH, null, Set.of("vision"));
        totals.put(plan.offering(), 2);
        var teams = Map.of(
                "vision", new TeamRules(Map.of(P5, 2, P4D, 4, G5, 8), null, null, false, 1),
                "nlp", new TeamRules(Map.of(P4D, 4, G5, 8), 64, 10, true, 2));
        return Scenario.of(new Fleet(CATALOG, totals, List.of(plan), teams, null), QueuePolicy.DEFAULT);
    }

    static PreferenceEntry onDemand(String type, int count, String region) {
        return new PreferenceEntry(type, count, region, null);
    }

    /** A training job that ran {@code run} seconds, as long on every type it lists. */
    static ReplayJob job(String id, String team, JobKind kind, PreferenceEntry... entries) {
        var runs = new HashMap<String, Long>();
        for (PreferenceEntry entry : entries) {
            runs.put(entry.instanceType(), 600L);
        }
        return new ReplayJob(id, team, 0, 0, 0, kind, null, List.of(entries), runs, null, null, null, 8);
    }
}
