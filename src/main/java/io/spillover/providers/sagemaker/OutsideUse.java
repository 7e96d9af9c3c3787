package io.spillover.providers.sagemaker;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the account's training jobs outside Spillover hold, as SageMaker's list calls show it: the region's
 * InProgress training jobs not named {@code spl-*}, each described once for its ResourceConfig (a job's
 * resources do not change while it runs). At most {@code describesPerReading} new jobs are described per
 * reading, so a busy account costs a bounded number of calls; the rest are counted at the next readings.
 */
final class OutsideUse {

    /** By instance type, the instances held outside Spillover, and how many jobs were not described yet. */
    record Reading(Map<String, Integer> instances, int uncounted) {
    }

    private final SageMakerApi api;
    private final int describesPerReading;
    private final Map<String, Map<String, Integer>> described = new ConcurrentHashMap<>();

    OutsideUse(SageMakerApi api, int describesPerReading) {
        this.api = api;
        this.describesPerReading = describesPerReading;
    }

    Reading read(String region) {
        List<String> running = api.outsideTrainingJobsInProgress(region);
        Set<String> names = new HashSet<>(running);
        String prefix = region + "/";
        described.keySet().removeIf(key -> key.startsWith(prefix) && !names.contains(key.substring(prefix.length())));
        var instances = new TreeMap<String, Integer>();
        int describes = 0;
        int uncounted = 0;
        for (String name : running) {
            Map<String, Integer> held = described.get(prefix + name);
            if (held == null && describes < describesPerReading) {
                describes++;
                held = api.trainingJobInstances(region, name).orElse(Map.of());
                described.put(prefix + name, held);
            }
            if (held == null) {
                uncounted++;
            } else {
                held.forEach((type, count) -> instances.merge(type, count, Integer::sum));
            }
        }
        return new Reading(instances, uncounted);
    }
}
