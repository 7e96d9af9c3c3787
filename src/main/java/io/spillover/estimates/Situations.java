package io.spillover.estimates;

import io.spillover.capacity.CapacityService;
import io.spillover.jobs.QueuedJob;
import io.spillover.jobs.RunningJobs;
import io.spillover.placement.Capacity;
import io.spillover.placement.ExpectedRuns;
import io.spillover.placement.QueuePolicy;
import io.spillover.placement.SharingPolicy;
import io.spillover.queue.FairShares;
import io.spillover.queue.RunHistory;
import io.spillover.replay.RunPool;
import io.spillover.replay.Runs;
import io.spillover.replay.Situation;
import io.spillover.scheduling.SchedulingProperties;
import io.spillover.system.Snapshots;
import io.spillover.tenancy.SharingProperties;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The platform now as a forecast starts from it ({@link Situation}): capacity, plans and teams as a scheduling cycle
 * snapshots them, the pending jobs the estimator asks for (the windows of the queue it follows) with their deadlines,
 * every job on the provider with how long it has run, the queue policy and fair shares, and what is known of runs: each job's maximum run time and its user's
 * hint, its sweep's ended runs, and the latest completed runs of its profile in its team (once it has as many as
 * the scheduler asks for), else of its team, else of the platform. Only runs that ended count. It is read in one
 * read-only transaction at REPEATABLE READ, so a job that starts meanwhile is not both waiting and holding instances.
 */
@Component
class Situations {

    /** A situation, and the team of each of its waiting jobs (the estimates' tenant column). */
    record Read(Situation<UUID> situation, Map<UUID, String> teams) {
    }

    private final CapacityService capacity;
    private final RunningJobs running;
    private final FairShares fairShares;
    private final RunHistory history;
    private final Clock clock;
    private final TransactionTemplate snapshot;
    private final SharingPolicy sharing;
    private final JdbcClient jdbc;

    Situations(CapacityService capacity, RunningJobs running, FairShares fairShares,
               RunHistory history, Clock clock, PlatformTransactionManager transactions,
               SharingProperties sharing, SchedulingProperties scheduling, JdbcClient jdbc) {
        this.jdbc = jdbc;
        this.sharing = sharing.policy(scheduling.sweepInterval());
        this.snapshot = new TransactionTemplate(transactions);
        snapshot.setReadOnly(true);
        this.capacity = capacity;
        this.running = running;
        this.fairShares = fairShares;
        this.history = history;
        this.clock = clock;
    }

    /**
     * The platform now, with these of the pending jobs waiting (read in the same snapshot as the rest), and every job
     * on the provider running.
     */
    Read read(Supplier<List<QueuedJob>> windows) {
        return snapshot.execute(status -> {
            Snapshots.repeatableRead(jdbc);
            return readNow(windows);
        });
    }

    QueuePolicy policy() {
        return fairShares.policy();
    }

    private Read readNow(Supplier<List<QueuedJob>> windows) {
        QueuePolicy policy = fairShares.policy();
        FairShares.Snapshot shares = policy.fairShare() ? fairShares.read() : fairShares.forCycle(List.of());
        Capacity snapshot = capacity.snapshot();
        List<QueuedJob> queue = windows.get();
        Instant now = clock.instant();
        List<RunningJobs.RunningJob> live = running.all(now);
        var pools = new Pools(history.latestRuns(now.minus(policy.shareHalfLife().multipliedBy(10)),
                FairShares.RUNS_PER_TEAM), shares);

        Set<UUID> sweeps = new HashSet<>();
        queue.stream().map(QueuedJob::sweep).filter(Objects::nonNull).forEach(sweeps::add);
        live.stream().map(RunningJobs.RunningJob::sweep).filter(Objects::nonNull).forEach(sweeps::add);
        var sweepRuns = new HashMap<String, List<Duration>>();
        history.sweeps(sweeps, now).forEach((sweep, known) -> {
            if (!known.ended().isEmpty()) {
                sweepRuns.put(sweep.toString(), known.ended());
            }
        });

        var runningNow = new ArrayList<Situation.Running<UUID>>(live.size());
        for (RunningJobs.RunningJob job : live) {
            Duration ran = job.startedAt() == null ? Duration.ZERO : Duration.between(job.startedAt(), now);
            runningNow.add(new Situation.Running<>(job.id(), job.team(), job.entry(), ran, job.stopping(),
                    pools.runs(job.team(), job.profile(), job.maxRuntime(), job.hint(), job.sweep()),
                    sharing.enabled() ? job.placement() : null));
        }
        var waiting = new ArrayList<Situation.Waiting<UUID>>(queue.size());
        var teams = new HashMap<UUID, String>();
        for (QueuedJob job : queue) {
            waiting.add(new Situation.Waiting<>(job.queued(null),
                    pools.runs(job.team(), job.profile(), job.maxRuntime(), job.hint(), job.sweep()),
                    job.pendingDeadline()));
            teams.put(job.id(), job.team());
        }
        return new Read(new Situation<>(now, policy, snapshot.offerings(), snapshot.plans(), snapshot.teams(),
                policy.fairShare() ? shares.shares() : Map.of(), sweepRuns, runningNow, waiting, List.of(), sharing),
                teams);
    }

    /**
     * The run pools jobs draw from, one instance per profile, team and the platform: a forecast tells a running
     * job's pool by identity (its runs so far count as runs at least that long).
     */
    private static final class Pools {

        private final FairShares.Snapshot shares;
        private final Map<String, List<Duration>> byTeam = new HashMap<>();
        private final Map<String, List<Duration>> byProfile = new HashMap<>();
        private final Map<String, RunPool> made = new HashMap<>();
        private final RunPool platform;

        Pools(List<RunHistory.Completed> runs, FairShares.Snapshot shares) {
            this.shares = shares;
            var all = new ArrayList<Duration>();
            for (RunHistory.Completed run : runs) {
                if (run.ofTeam()) {
                    byTeam.computeIfAbsent(run.team(), t -> new ArrayList<>()).add(run.run());
                    all.add(run.run());
                }
                if (run.ofProfile()) {
                    byProfile.computeIfAbsent(run.team() + '\n' + run.profile(), k -> new ArrayList<>()).add(run.run());
                }
            }
            this.platform = all.isEmpty() ? RunPool.NONE : new RunPool(all, "the platform's history");
        }

        Runs runs(String team, String profile, Duration maxRuntime, Duration hint, UUID sweep) {
            return new Runs(maxRuntime, hint, sweep == null ? null : sweep.toString(), shares.typical(team, profile),
                    pool(team, profile));
        }

        /** The profile's runs where its median is the job's typical run (it has enough), else the team's, else all. */
        private RunPool pool(String team, String profile) {
            boolean ofProfile = profile != null && shares.byProfile().getOrDefault(team, Map.of()).containsKey(profile)
                    && byProfile.containsKey(team + '\n' + profile);
            if (ofProfile) {
                return made.computeIfAbsent("profile\n" + team + '\n' + profile, k -> new RunPool(
                        byProfile.get(team + '\n' + profile), "profile " + profile + "'s history in team " + team));
            }
            if (byTeam.containsKey(team)) {
                return made.computeIfAbsent("team\n" + team, k -> new RunPool(byTeam.get(team),
                        "team " + team + "'s history"));
            }
            return platform;
        }
    }
}
