package io.spillover.whatif;

import io.spillover.jobs.RecordedJob;
import io.spillover.placement.PreferenceEntry;
import io.spillover.replay.Fleet;
import io.spillover.replay.Holding;
import io.spillover.replay.ReplayJob;
import io.spillover.shared.InvalidRequestException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * The platform's own jobs of a window as a replay's input, as recorded: when each was submitted (virtual time 0 is
 * the window's start), by which team, its list as stored, its priority, kind, profile, maximum run time and
 * patience, and how long its last attempt ran on the type it got. Jobs that never ran are left out and counted,
 * as are jobs of teams the platform no longer has.
 */
final class HistoryInput {

    static final String RUN_TIMES = "A job runs as long on every entry of its list as it ran, as recorded, on the"
            + " entry it got: the catalog holds no relative speeds of types, and the entries of one list are meant by"
            + " their user to be equivalent. A job still running is replayed with its run so far.";
    static final String BEFORE = "Jobs submitted before the window that ran at its start hold their instances from"
            + " the start until they ended (those running still, until now), in both replays.";

    private HistoryInput() {
    }

    /**
     * @param submitted the jobs submitted in the window, in submission order
     * @param before    the jobs submitted before it that ran at its start
     * @throws InvalidRequestException when no job of the window can be replayed
     */
    static Prepared of(Instant from, Instant to, Instant now, List<RecordedJob> submitted, List<RecordedJob> before,
                       Fleet fleet) {
        if (submitted.isEmpty()) {
            throw new InvalidRequestException("input", "no job was submitted from " + from + " to " + to);
        }
        var skips = new Prepared.Skips();
        var jobs = new ArrayList<ReplayJob>(submitted.size());
        int running = 0;
        for (RecordedJob job : submitted) {
            String named = job.team() + "/" + job.name();
            if (!job.ran()) {
                skips.add(job.status().ended() ? "ended without running: stopped, failed or out of pending time"
                        + " before it started" : "waiting still: its run is not known", named);
            } else if (!fleet.teams().containsKey(job.team())) {
                skips.add("its team is no longer on the platform", named);
            } else if (!job.entries().stream().allMatch(e -> fleet.catalog().contains(e.instanceType()))) {
                skips.add("lists an instance type the catalog no longer has", named);
            } else {
                long run = job.runSeconds(now);
                running += job.running() ? 1 : 0;
                var runs = new HashMap<String, Long>();
                job.entries().forEach(entry -> runs.put(entry.instanceType(), run));
                long submit = Math.max(0, Duration.between(from, job.createdAt()).getSeconds());
                jobs.add(new ReplayJob(named, job.team(), submit, jobs.size(), job.priority(), job.kind(),
                        job.profile(), job.entries(), runs, job.maxRuntime(), job.fallbackAfter(), null,
                        accelerators(job, fleet)));
            }
        }
        if (jobs.isEmpty()) {
            throw new InvalidRequestException("input", "of the " + submitted.size() + " job(s) submitted from " + from
                    + " to " + to + ", none ran: there is nothing to replay");
        }
        var holdings = new ArrayList<Holding>();
        for (RecordedJob job : before) {
            if (job.ran() && fleet.teams().containsKey(job.team())) {
                Instant until = job.endedAt() != null ? job.endedAt() : now;
                holdings.add(new Holding(job.team(), new PreferenceEntry(job.ranOn().instanceType(), job.ranInstances(),
                        job.ranOn().region(), job.ranOn().planName()), Math.max(0, seconds(from, until))));
            }
        }
        var assumptions = new ArrayList<String>(List.of(RUN_TIMES));
        if (!holdings.isEmpty()) {
            assumptions.add(BEFORE);
        }
        if (running > 0) {
            assumptions.add(running + " job(s) of the window run still: their runs so far stand for their runs.");
        }
        return new Prepared(jobs, holdings, skips.list(), assumptions);
    }

    /** Whole seconds from {@code from} to {@code at}, rounded up. */
    private static long seconds(Instant from, Instant at) {
        long millis = Duration.between(from, at).toMillis();
        return (millis + 999) / 1000;
    }

    private static int accelerators(RecordedJob job, Fleet fleet) {
        PreferenceEntry first = job.entries().get(0);
        return first.instanceCount() * fleet.acceleratorsPerInstance(first.instanceType());
    }
}
