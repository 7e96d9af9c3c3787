package io.spillover.bench.core;

import static io.spillover.bench.core.Snapshot.entry;
import static io.spillover.bench.core.Snapshot.request;

import io.spillover.placement.Capacity;
import io.spillover.placement.Decision;
import io.spillover.placement.Placement;
import io.spillover.placement.PlacementRequest;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Evaluations per second of {@link Placement#decide}: one job against the 100-offering, 50-team snapshot.
 * The core evaluates every entry of a list whatever comes first, and words a reason for each, so the cost
 * depends on how many entries there are and on which path each takes. The 5-entry lists cover the cases:
 * the first entry fits (the other four "fit too"), only the last fits after four refusals of four different
 * kinds (plan short, offering full, offering marked unavailable, team quota used up), and none fits.
 * Deciding books nothing, so one capacity serves every call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class PlacementBenchmark {

    private static final String TEAM = Snapshot.team(7);
    private static final String EAST = "us-east-1";
    private static final String WEST = "us-west-2";

    private Snapshot snapshot;
    private Placement placement;
    private Capacity capacity;
    private PlacementRequest oneFits;
    private PlacementRequest oneFull;
    private PlacementRequest fiveFirstFits;
    private PlacementRequest fiveLastFits;
    private PlacementRequest fiveNoneFits;

    @Setup
    public void setUp() {
        snapshot = new Snapshot(4);
        placement = new Placement(snapshot.catalog);
        capacity = snapshot.capacity();
        oneFits = request(TEAM, entry("ml.g5.48xlarge", EAST, null, 2));
        oneFull = request(TEAM, entry(Snapshot.P5, WEST, null, 2));
        fiveFirstFits = request(TEAM, entry("ml.g5.48xlarge", EAST, null, 2), entry("ml.g5.48xlarge", WEST, null, 2),
                entry("ml.g6.48xlarge", EAST, null, 2), entry("ml.p3.16xlarge", EAST, null, 2),
                entry(Snapshot.P5, EAST, null, 2));
        fiveLastFits = request(TEAM, entry(Snapshot.P5, EAST, "h100-us-east-1", 2), entry(Snapshot.P5, WEST, null, 2),
                entry("ml.p4d.24xlarge", EAST, null, 2), entry("ml.g6e.48xlarge", EAST, null, 2),
                entry("ml.g5.48xlarge", EAST, null, 2));
        fiveNoneFits = request(TEAM, entry(Snapshot.P5, EAST, "h100-us-east-1", 2), entry(Snapshot.P5, WEST, null, 2),
                entry("ml.p4d.24xlarge", EAST, null, 2), entry("ml.g6e.48xlarge", EAST, null, 2),
                entry("ml.g5.48xlarge", EAST, null, 8));
        requireOutcome(oneFits, 0);
        requireOutcome(oneFull, -1);
        requireOutcome(fiveFirstFits, 0);
        requireOutcome(fiveLastFits, 4);
        requireOutcome(fiveNoneFits, -1);
    }

    /** A benchmark of the wrong case measures nothing useful: check each request does what its name says. */
    private void requireOutcome(PlacementRequest request, int selected) {
        Decision decision = placement.decide(request, capacity, Snapshot.NOW);
        int index = decision.selected().map(v -> v.index()).orElse(-1);
        if (index != selected) {
            throw new IllegalStateException("expected entry " + selected + " selected, got " + decision);
        }
    }

    @Benchmark
    public Decision oneEntryFits() {
        return placement.decide(oneFits, capacity, Snapshot.NOW);
    }

    @Benchmark
    public Decision oneEntryFull() {
        return placement.decide(oneFull, capacity, Snapshot.NOW);
    }

    @Benchmark
    public Decision fiveEntriesFirstFits() {
        return placement.decide(fiveFirstFits, capacity, Snapshot.NOW);
    }

    @Benchmark
    public Decision fiveEntriesLastFits() {
        return placement.decide(fiveLastFits, capacity, Snapshot.NOW);
    }

    @Benchmark
    public Decision fiveEntriesNoneFits() {
        return placement.decide(fiveNoneFits, capacity, Snapshot.NOW);
    }

    /** The working copy a queue pass starts from: 100 offerings, 4 plans and 50 teams put in maps. */
    @Benchmark
    public Capacity copySnapshot() {
        return snapshot.capacity();
    }
}
