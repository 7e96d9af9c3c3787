package io.spillover.bench.core;

import io.spillover.placement.OfferingKey;
import io.spillover.placement.OfferingState;
import io.spillover.placement.Placement;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.QueuePass;
import io.spillover.placement.QueuePolicy;
import io.spillover.placement.QueuedRequest;
import io.spillover.placement.SharingPolicy;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Passes per second of {@link QueuePass#decide} over a long queue on a busy fleet: {@code pending} jobs of the 50 teams, each with 1 to 5 entries (1 to 4
 * instances each) drawn from the 100 offerings, against a snapshot with one instance free per on-demand
 * offering. A few dozen jobs start; every other job is decided and refused, entry by entry. Each pass books
 * into a fresh copy of the snapshot, as the service's cycle does ({@code PlacementBenchmark.copySnapshot}
 * measures that copy alone).
 * Jobs decided per second = pending × passes per second. A pass over the whole queue is what a forecast or a what-if
 * run does; on a release the service's cycle passes over far fewer, the jobs of each team's line that the freed
 * instances could start and its look-ahead ({@code spillover.scheduling.look-ahead}).
 * {@code policy}: {@code first-fit} is the queue as first built ({@link QueuePolicy#FIRST_FIT}, hard quotas);
 * {@code default} is what the service runs, {@link QueuePolicy#DEFAULT} with guarantees lent
 * ({@link SharingPolicy#DEFAULT}): a round per entry for precedence, and the borrowing rounds besides.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class QueuePassBenchmark {

    @Param({"1000", "10000", "100000"})
    public int pending;

    @Param({"first-fit", "default"})
    public String policy;

    private Snapshot snapshot;
    private QueuePass pass;
    private List<QueuedRequest<Integer>> queue;

    @Setup
    public void setUp() {
        snapshot = new Snapshot(1);
        var placement = new Placement(snapshot.catalog);
        pass = switch (policy) {
            case "first-fit" -> new QueuePass(placement);
            case "default" -> new QueuePass(placement, QueuePolicy.DEFAULT, SharingPolicy.DEFAULT);
            default -> throw new IllegalArgumentException("policy is first-fit or default, not " + policy);
        };
        List<OfferingKey> onDemand = snapshot.offerings.stream().map(OfferingState::key)
                .filter(k -> !k.isPlan()).toList();
        var random = new SplittableRandom(42);
        var jobs = new ArrayList<QueuedRequest<Integer>>(pending);
        for (int id = 0; id < pending; id++) {
            var entries = new LinkedHashSet<OfferingKey>();
            int size = 1 + random.nextInt(5);
            while (entries.size() < size) {
                OfferingKey key = onDemand.get(random.nextInt(onDemand.size()));
                // a list names each (type, region) once
                if (entries.stream().noneMatch(e -> e.instanceType().equals(key.instanceType())
                        && e.region().equals(key.region()))) {
                    entries.add(key);
                }
            }
            PreferenceEntry[] list = entries.stream()
                    .map(k -> Snapshot.entry(k.instanceType(), k.region(), null, 1 + random.nextInt(4)))
                    .toArray(PreferenceEntry[]::new);
            jobs.add(new QueuedRequest<>(id, Snapshot.request(Snapshot.team(random.nextInt(Snapshot.TEAMS)), list),
                    random.nextInt(10) == 0 ? 1 : 0, Snapshot.NOW.minusSeconds(pending - id)));
        }
        jobs.sort(QueuedRequest.queueOrder());
        queue = List.copyOf(jobs);
    }

    @Benchmark
    public List<QueuePass.Outcome<Integer>> decideQueue() {
        return pass.decide(queue, snapshot.capacity(), Snapshot.NOW);
    }
}
