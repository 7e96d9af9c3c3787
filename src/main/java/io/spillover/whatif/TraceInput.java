package io.spillover.whatif;

import io.spillover.catalog.AcceleratorKind;
import io.spillover.catalog.Catalog;
import io.spillover.catalog.InstanceType;
import io.spillover.catalog.JobKind;
import io.spillover.placement.OfferingKey;
import io.spillover.replay.Fleet;
import io.spillover.replay.JobChoices;
import io.spillover.replay.ReplayConfig;
import io.spillover.replay.TeamRules;
import io.spillover.replay.Trace;
import io.spillover.replay.TraceException;
import io.spillover.replay.TraceJob;
import io.spillover.replay.TraceModel;
import io.spillover.replay.Window;
import io.spillover.shared.InvalidRequestException;
import java.io.StringReader;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * An uploaded trace in the replay's CSV format (docs/what-if.md, "The trace input") as a replay's input on the platform's
 * fleet. A trace names GPUs and run times, not instance types, so its jobs ask as the benchmark's do
 * ({@link JobChoices}): ceil(GPUs / GPUs per instance) instances of each GPU type of the fleet that runs training
 * and has instances, most accelerator memory first, the first choice drawn per job in proportion to each type's
 * GPUs in the fleet. A team of the trace that the platform does not have is replayed with no quota limit and
 * weight 1; a team it has keeps its quota.
 */
final class TraceInput {

    /** The one seed of a what-if run's first-choice draws, so a trace replays alike every time. */
    static final long SEED = 1;
    /** A team the platform does not have may use every instance: no quota limit. */
    static final int NO_LIMIT = 1_000_000;

    private TraceInput() {
    }

    /** The baseline fleet, ready for the trace's teams. */
    static Fleet fleetFor(Fleet live) {
        var limits = new TreeMap<String, Integer>();
        live.offerings().forEach(k -> limits.put(k.instanceType(), NO_LIMIT));
        return live.withOtherTeams(new TeamRules(limits, null, null, false, 1));
    }

    /**
     * @param fleet the baseline fleet, as {@link #fleetFor} made it
     * @throws InvalidRequestException naming the line and column of a malformed row, or saying why nothing of
     *                                 the trace can be replayed
     */
    static Prepared of(String csv, Fleet fleet) {
        List<TraceJob> trace;
        try {
            trace = Window.WHOLE_TRACE.select(Trace.read(new StringReader(csv)));
        } catch (TraceException e) {
            throw new InvalidRequestException("input.trace", "line " + e.line()
                    + (e.column() == null ? "" : ", column " + e.column()) + ": " + e.problem());
        }
        if (trace.isEmpty()) {
            throw new InvalidRequestException("input.trace", "the trace has a header and no job");
        }
        TraceModel model = model(fleet);
        JobChoices.Built built = new JobChoices(fleet, model).build(trace);
        var skips = new Prepared.Skips();
        built.unplaceable().forEach(id -> skips.add("no entry could ever hold it: more GPUs than any offering of"
                + " the fleet, or its team's quota, has", id));
        if (built.jobs().isEmpty()) {
            throw new InvalidRequestException("input.trace", "none of the trace's " + trace.size() + " job(s) fits"
                    + " any offering of the fleet");
        }
        Set<String> platformTeams = fleet.teams().keySet();
        long strangers = trace.stream().map(TraceJob::team).distinct().filter(t -> !platformTeams.contains(t)).count();
        var assumptions = new java.util.ArrayList<String>(List.of(
                "A trace job asks for ceil(GPUs / GPUs per instance) instances of each GPU type of the fleet that runs"
                        + " training and has instances, in the order " + model.types().stream()
                        .map(ReplayConfig.TypeSpec::instanceType).toList() + " (most accelerator memory first), its"
                        + " first choice drawn per job in proportion to each type's GPUs in the fleet; it runs as long"
                        + " on every type as the trace says (its duration_s, else its duration_s_v100)."));
        if (strangers > 0) {
            assumptions.add(strangers + " team(s) of the trace are not on the platform: they are replayed with no"
                    + " quota limit and weight 1.");
        }
        if (built.infeasibleEntries() > 0 || built.entriesBeyondFive() > 0) {
            assumptions.add(built.infeasibleEntries() + " entries no job could ever get (more instances than the"
                    + " offering or the quota) and " + built.entriesBeyondFive() + " beyond five were left out of"
                    + " lists.");
        }
        return new Prepared(built.jobs(), List.of(), skips.list(), assumptions);
    }

    /** The fleet's GPU types for training that have instances, most accelerator memory first; weights by GPUs. */
    static TraceModel model(Fleet fleet) {
        Catalog catalog = fleet.catalog();
        Map<String, Integer> gpus = new LinkedHashMap<>();
        for (OfferingKey key : fleet.offerings()) {
            InstanceType type = catalog.get(key.instanceType());
            if (type.acceleratorKind() == AcceleratorKind.GPU && type.suits(JobKind.TRAINING) && fleet.total(key) > 0) {
                gpus.merge(type.name(), fleet.total(key) * type.acceleratorCount(), Integer::sum);
            }
        }
        if (gpus.isEmpty()) {
            throw new InvalidRequestException("input.trace", "the fleet has no GPU instances for training jobs to"
                    + " replay a trace on");
        }
        List<ReplayConfig.TypeSpec> types = gpus.keySet().stream().map(catalog::get)
                .sorted(Comparator.comparingInt(InstanceType::acceleratorMemoryGiB).reversed()
                        .thenComparing(Comparator.comparingInt(InstanceType::acceleratorCount).reversed())
                        .thenComparing(InstanceType::name))
                .map(t -> new ReplayConfig.TypeSpec(t.name(), "v100", 1.0, gpus.get(t.name())))
                .toList();
        return new TraceModel(types, SEED, null, catalog);
    }
}
