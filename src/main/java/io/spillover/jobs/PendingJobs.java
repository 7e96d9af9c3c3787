package io.spillover.jobs;

import io.spillover.catalog.JobKind;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.PreferenceList;
import io.spillover.placement.QueuedRequest;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import io.spillover.tenancy.SharingProperties;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The queue of pending jobs in the order they are served: priority (higher first), then submission time.
 * A cycle reads only the heads of the lines that could move: for each offering with an instance free and each team
 * waiting on it, the first jobs in queue order (a window), and jobs it names. What it reads grows with what the
 * freed capacity could start, not with how many wait (issue 29).
 */
@Repository
public class PendingJobs {

    /**
     * Queue order as SQL over a job aliased {@code j}: the same order as {@code QueuedRequest.queueOrder()},
     * which the placement core and the replay use (QueueOrderTest holds the two together, ties included).
     */
    static final String QUEUE_ORDER = "j.priority DESC, j.created_at, j.id";
    private static final Comparator<QueuedJob> IN_QUEUE_ORDER = Comparator.comparing(job -> job.queued(null),
            QueuedRequest.queueOrder());

    private final JdbcClient jdbc;
    private final SharingProperties sharing;

    PendingJobs(JdbcClient jdbc, SharingProperties sharing) {
        this.jdbc = jdbc;
        this.sharing = sharing;
    }

    /**
     * The first pending jobs no cycle has evaluated yet (a leader may have died between a submission and its cycle),
     * oldest first, at most {@code most}. Of the first {@code most} jobs never evaluated, those that left the queue
     * unevaluated (stopped at once) are no longer looked for.
     */
    public List<UUID> unevaluated(int most) {
        return jdbc.sql("""
                        WITH missing AS (
                                 SELECT l.job_id, j.status = 'PENDING' AS pending, l.created_at
                                   FROM latest_evaluations l JOIN jobs j ON j.id = l.job_id
                                  WHERE l.evaluation_id IS NULL ORDER BY l.created_at LIMIT :most),
                             gone AS (
                                 DELETE FROM latest_evaluations
                                  WHERE job_id IN (SELECT job_id FROM missing WHERE NOT pending))
                        SELECT job_id FROM missing WHERE pending ORDER BY created_at""")
                .param("most", most).query(UUID.class).list();
    }

    /**
     * The pending jobs that gave way to a shorter job of their own team ({@code spillover.sharing.shorter-first}): they
     * resume before their team's other jobs of their priority, wherever they stand in the queue, so every cycle reads
     * them. They are few: a job gives way at most once.
     */
    public List<UUID> gaveWay() {
        return jdbc.sql("SELECT id FROM jobs WHERE gave_way AND status = 'PENDING'").query(UUID.class).list();
    }

    /**
     * What a cycle asks of the queue.
     *
     * @param named      jobs to read whatever they wait on (new submissions, holders, jobs whose patience ran out)
     * @param free       the types and regions with an instance free, each with how many are free there (on demand
     *                   and on plans together): no more jobs than that can start on it
     * @param everyTeam  of those, the ones whose every waiting team is read (their capacity grew); the others are
     *                   read only for {@code teams}
     * @param teams      teams whose headroom grew: their windows on every free offering are read
     * @param holdAge    jobs waiting this long are read whatever their count, since they may hold what frees;
     *                   null when the policy holds nothing
     * @param lookAhead  how far past what fits a window reads, for the policy's rules (precedence, shortest first,
     *                   holds) to choose among
     */
    public record Ask(Collection<UUID> named, Map<TypeInRegion, Integer> free, Collection<TypeInRegion> everyTeam,
                      Collection<String> teams, Instant holdAge, int lookAhead) {

        public Ask {
            named = List.copyOf(named);
            free = Map.copyOf(free);
            everyTeam = everyTeam.stream().filter(free::containsKey).collect(Collectors.toUnmodifiableSet());
            teams = Set.copyOf(teams);
        }
    }

    /** An instance type in a region: what a job's entry names, and so what a window reads. */
    public record TypeInRegion(String instanceType, String region) {

        public static TypeInRegion of(OfferingKey key) {
            return new TypeInRegion(key.instanceType(), key.region());
        }
    }

    /**
     * The jobs read, in queue order, and the windows that came back full, with the jobs read in each: more of their
     * team's jobs wait behind them, so if what they were read for is still free after the cycle and some of them
     * started, another cycle should read on.
     */
    public record Heads(List<QueuedJob> jobs, Map<Window, Set<UUID>> full) {
    }

    /** One team's line on one type and region. */
    public record Window(TypeInRegion offering, String team) {
    }

    /**
     * The jobs of an {@link Ask}, each read once, in queue order. A named job that lists a free offering is read with
     * that offering's line, every team's, so that it never takes an instance ahead of older jobs waiting for it: a
     * cycle woken by a burst's submissions may see a released instance before the release's own cycle does.
     */
    public Heads heads(Ask ask) {
        var read = new LinkedHashMap<UUID, QueuedJob>();
        if (!ask.named().isEmpty()) {
            load(ask.named()).forEach(job -> read.put(job.id(), job));
        }
        var everyTeam = new HashSet<TypeInRegion>(ask.everyTeam());
        read.values().forEach(job -> job.preferences().entries().stream()
                .map(entry -> TypeInRegion.of(entry.offering())).filter(ask.free()::containsKey)
                .forEach(everyTeam::add));
        var lines = new Ask(ask.named(), ask.free(), everyTeam, ask.teams(), ask.holdAge(), ask.lookAhead());
        var full = new HashMap<Window, Set<UUID>>();
        var behind = new LinkedHashSet<UUID>();
        WindowsQuery query = windowsQuery(lines);
        if (query != null) {
            var windows = new HashMap<Window, Set<UUID>>();
            jdbc.sql(query.sql()).params(query.params()).query(rs -> {
                var window = new Window(new TypeInRegion(rs.getString("instance_type"), rs.getString("region")),
                        rs.getString("team"));
                UUID job = rs.getObject("job_id", UUID.class);
                windows.computeIfAbsent(window, w -> new HashSet<>()).add(job);
                if (!read.containsKey(job)) {
                    behind.add(job);
                }
            });
            windows.forEach((window, jobs) -> {
                if (jobs.size() >= windowLength(ask.free().get(window.offering()), ask.lookAhead())) {
                    full.put(window, jobs);
                }
            });
        }
        if (!behind.isEmpty()) {
            load(behind).forEach(job -> read.put(job.id(), job));
        }
        return new Heads(read.values().stream().sorted(IN_QUEUE_ORDER).toList(), full);
    }

    private List<QueuedJob> load(Collection<UUID> ids) {
        return load("j.id = ANY(:ids)", Map.of("ids", ids.toArray(UUID[]::new)));
    }

    /**
     * The first {@code length} pending jobs of each team in queue order, wherever they wait: a strict-FIFO team's
     * head holds its later jobs back, so the cycle must see it even when it waits on a full offering. Read by
     * {@code jobs_team_queue} once the statistics know the team's jobs ({@link QueueStatistics} sees to it after a
     * burst); until then, by the pending jobs and a sort.
     */
    public List<QueuedJob> teamHeads(Collection<String> teams, int length) {
        if (teams.isEmpty()) {
            return List.of();
        }
        List<UUID> ids = jdbc.sql("""
                        SELECT h.id FROM unnest(CAST(:teams AS text[])) AS t(team) CROSS JOIN LATERAL (
                               SELECT j.id FROM jobs j WHERE j.team = t.team AND j.status = 'PENDING'
                                ORDER BY %s LIMIT :length) h""".formatted(QUEUE_ORDER))
                .param("teams", teams.toArray(String[]::new)).param("length", length).query(UUID.class).list();
        return ids.isEmpty() ? List.of() : load("j.id = ANY(:ids)", Map.of("ids", ids.toArray(UUID[]::new)));
    }

    /**
     * The first {@code perTeam} pending jobs in queue order of each team on each of the offerings (by type and
     * region): the part of the queue an estimate of the starts follows, however long it is. As a cycle's windows,
     * each is one walk of {@code job_entries_queue} stopped after its length, and the teams (and, for every offering,
     * the types and regions) waiting are found by skipping through the same index, one probe each.
     *
     * @param offerings null for every offering a job waits on
     */
    public List<QueuedJob> windows(Collection<OfferingKey> offerings, int perTeam) {
        WindowsQuery query = estimationWindowsQuery(offerings, perTeam);
        if (query == null) {
            return List.of();
        }
        UUID[] ids = jdbc.sql(query.sql()).params(query.params()).query(UUID.class).list().toArray(UUID[]::new);
        return ids.length == 0 ? List.of() : load("j.id = ANY(:ids)", Map.of("ids", ids));
    }

    /** The statement of {@link #windows}; null when it has nothing to read. */
    static WindowsQuery estimationWindowsQuery(Collection<OfferingKey> offerings, int perTeam) {
        var params = new HashMap<String, Object>();
        params.put("window", perTeam);
        String offered;
        if (offerings == null) {
            offered = """
                    offered (instance_type, region) AS (
                        (SELECT instance_type, region FROM job_entries WHERE pending
                          ORDER BY instance_type, region LIMIT 1)
                        UNION ALL
                        SELECT n.instance_type, n.region FROM offered o CROSS JOIN LATERAL (
                               SELECT instance_type, region FROM job_entries
                                WHERE pending AND (instance_type, region) > (o.instance_type, o.region)
                                ORDER BY instance_type, region LIMIT 1) n
                    )""";
        } else {
            var places = offerings.stream().map(TypeInRegion::of).distinct().toList();
            if (places.isEmpty()) {
                return null;
            }
            params.put("types", places.stream().map(TypeInRegion::instanceType).toArray(String[]::new));
            params.put("regions", places.stream().map(TypeInRegion::region).toArray(String[]::new));
            offered = """
                    offered (instance_type, region) AS (
                        SELECT * FROM unnest(CAST(:types AS text[]), CAST(:regions AS text[]))
                    )""";
        }
        return new WindowsQuery("""
                WITH RECURSIVE %s, waiting (instance_type, region, team) AS (
                    SELECT o.instance_type, o.region,
                           (SELECT min(e.team) FROM job_entries e
                             WHERE e.pending AND e.instance_type = o.instance_type AND e.region = o.region)
                      FROM offered o
                    UNION ALL
                    SELECT w.instance_type, w.region,
                           (SELECT min(e.team) FROM job_entries e
                             WHERE e.pending AND e.instance_type = w.instance_type AND e.region = w.region
                               AND e.team > w.team)
                      FROM waiting w WHERE w.team IS NOT NULL
                )
                SELECT DISTINCT h.job_id
                  FROM waiting w CROSS JOIN LATERAL (
                       SELECT e.job_id FROM job_entries e
                        WHERE e.pending AND e.instance_type = w.instance_type AND e.region = w.region
                          AND e.team = w.team
                        ORDER BY e.priority DESC, e.created_at, e.job_id
                        LIMIT :window) h
                 WHERE w.team IS NOT NULL""".formatted(offered), params);
    }

    /**
     * A job as far as what it could change in the queue: whether it waits, where in queue order, and the offerings
     * its entries list.
     *
     * @param listed by type and region (on demand) or plan
     */
    public record Listing(UUID id, String team, boolean pending, int priority, Instant createdAt,
                          List<OfferingKey> listed) {
    }

    /** What these jobs list, whatever their status; jobs that do not exist are left out. */
    public List<Listing> listings(Collection<UUID> jobIds) {
        if (jobIds.isEmpty()) {
            return List.of();
        }
        record Entry(UUID id, String team, boolean pending, int priority, Instant createdAt, OfferingKey offering) {
        }
        List<Entry> entries = jdbc.sql("""
                        SELECT j.id, j.team, j.status = 'PENDING' AS pending, j.priority, j.created_at,
                               e.instance_type, e.region, e.training_plan
                          FROM jobs j JOIN job_entries e ON e.job_id = j.id
                         WHERE j.id = ANY(:ids)
                         ORDER BY j.id, e.idx""")
                .param("ids", jobIds.toArray(UUID[]::new))
                .query((rs, n) -> {
                    String plan = rs.getString("training_plan");
                    String region = rs.getString("region");
                    String type = rs.getString("instance_type");
                    return new Entry(rs.getObject("id", UUID.class), rs.getString("team"), rs.getBoolean("pending"),
                            rs.getInt("priority"), rs.getTimestamp("created_at").toInstant(),
                            plan == null ? OfferingKey.onDemand(region, type) : OfferingKey.plan(region, type, plan));
                }).list();
        var byJob = new LinkedHashMap<UUID, List<Entry>>();
        entries.forEach(e -> byJob.computeIfAbsent(e.id(), id -> new ArrayList<>()).add(e));
        return byJob.values().stream().map(job -> new Listing(job.get(0).id(), job.get(0).team(),
                job.get(0).pending(), job.get(0).priority(), job.get(0).createdAt(),
                job.stream().map(Entry::offering).toList())).toList();
    }

    /** A window reads what could start (one job per free instance at most) and the look-ahead beyond it. */
    static int windowLength(int fit, int lookAhead) {
        return fit + lookAhead;
    }

    /** The windows' statement, and its parameters. */
    record WindowsQuery(String sql, Map<String, Object> params) {
    }

    /**
     * The windows' statement of {@link #heads}; null when it has nothing to read. Every window is one walk of
     * {@code job_entries_queue} in queue order, stopped after its length, so that no plan depends on how many rows
     * the statistics believe an offering has: they lag behind a burst (see V14). Which teams wait on an offering is
     * found by skipping through the same index from one team to the next, one probe per team.
     */
    static WindowsQuery windowsQuery(Ask ask) {
        var everyTeam = new ArrayList<TypeInRegion>(ask.everyTeam());
        var teamWindows = new ArrayList<Window>();
        for (String team : ask.teams()) {
            for (TypeInRegion offering : ask.free().keySet()) {
                if (!everyTeam.contains(offering)) {
                    teamWindows.add(new Window(offering, team));
                }
            }
        }
        if (everyTeam.isEmpty() && teamWindows.isEmpty()) {
            return null;
        }
        var params = new HashMap<String, Object>();
        params.put("ot", everyTeam.stream().map(TypeInRegion::instanceType).toArray(String[]::new));
        params.put("or", everyTeam.stream().map(TypeInRegion::region).toArray(String[]::new));
        params.put("of", everyTeam.stream().map(o -> ask.free().get(o)).toArray(Integer[]::new));
        params.put("tt", teamWindows.stream().map(w -> w.offering().instanceType()).toArray(String[]::new));
        params.put("tr", teamWindows.stream().map(w -> w.offering().region()).toArray(String[]::new));
        params.put("tf", teamWindows.stream().map(w -> ask.free().get(w.offering())).toArray(Integer[]::new));
        params.put("tm", teamWindows.stream().map(Window::team).toArray(String[]::new));
        params.put("holdAge", ask.holdAge() == null ? null : Timestamp.from(ask.holdAge()));
        params.put("lookAhead", ask.lookAhead());
        return new WindowsQuery("""
                WITH RECURSIVE offered (instance_type, region, fit) AS (
                    SELECT * FROM unnest(CAST(:ot AS text[]), CAST(:or AS text[]), CAST(:of AS int[]))
                ), waiting (instance_type, region, fit, team) AS (
                    SELECT o.instance_type, o.region, o.fit,
                           (SELECT min(e.team) FROM job_entries e
                             WHERE e.pending AND e.instance_type = o.instance_type AND e.region = o.region)
                      FROM offered o
                    UNION ALL
                    SELECT w.instance_type, w.region, w.fit,
                           (SELECT min(e.team) FROM job_entries e
                             WHERE e.pending AND e.instance_type = w.instance_type AND e.region = w.region
                               AND e.team > w.team)
                      FROM waiting w WHERE w.team IS NOT NULL
                ), windows (instance_type, region, fit, team) AS (
                    SELECT * FROM waiting WHERE team IS NOT NULL
                    UNION ALL
                    SELECT * FROM unnest(CAST(:tt AS text[]), CAST(:tr AS text[]), CAST(:tf AS int[]),
                                         CAST(:tm AS text[]))
                )
                SELECT w.instance_type, w.region, w.team, h.job_id
                  FROM windows w CROSS JOIN LATERAL (
                       SELECT e.job_id FROM job_entries e
                        WHERE e.pending AND e.instance_type = w.instance_type AND e.region = w.region
                          AND e.team = w.team
                          AND (e.instance_count <= w.fit OR e.created_at <= CAST(:holdAge AS timestamptz))
                        ORDER BY e.priority DESC, e.created_at, e.job_id
                        LIMIT w.fit + :lookAhead) h""", params);
    }

    private List<QueuedJob> load(String condition, Map<String, Object> params) {
        List<Row> rows = jdbc.sql("""
                        SELECT j.id, j.team, j.kind, j.priority, j.created_at, j.max_runtime_seconds, j.profile_name, j.sweep_id,
                               l.evaluation_id IS NOT NULL AS evaluated, j.pending_deadline, j.preemptible,
                               j.preemptions, j.gave_way,
                               CAST(j.spec ->> 'fallbackAfterSeconds' AS bigint) AS fallback_after_seconds,
                               CAST(j.spec ->> 'expectedRuntimeSeconds' AS bigint) AS expected_runtime_seconds,
                               e.instance_type, e.instance_count, e.region, e.training_plan
                          FROM jobs j JOIN job_entries e ON e.job_id = j.id
                          LEFT JOIN latest_evaluations l ON l.job_id = j.id
                         WHERE j.status = 'PENDING' AND (%s)
                         ORDER BY %s, e.idx""".formatted(condition, QUEUE_ORDER))
                .params(params)
                .query((rs, n) -> new Row(rs.getObject("id", UUID.class), rs.getString("team"),
                        JobKind.valueOf(rs.getString("kind")), rs.getInt("priority"),
                        rs.getTimestamp("created_at").toInstant(), rs.getString("profile_name"),
                        rs.getObject("sweep_id", UUID.class),
                        rs.getBoolean("evaluated"), seconds(rs.getObject("fallback_after_seconds", Long.class)),
                        seconds(rs.getObject("max_runtime_seconds", Long.class)),
                        seconds(rs.getObject("expected_runtime_seconds", Long.class)),
                        rs.getTimestamp("pending_deadline").toInstant(),
                        sharing.preemptible(rs.getBoolean("preemptible"), rs.getInt("preemptions")),
                        rs.getBoolean("gave_way"),
                        new PreferenceEntry(rs.getString("instance_type"), rs.getInt("instance_count"),
                                rs.getString("region"), rs.getString("training_plan"))))
                .list();
        var byJob = new LinkedHashMap<UUID, List<Row>>();
        rows.forEach(row -> byJob.computeIfAbsent(row.id(), id -> new ArrayList<>()).add(row));
        return byJob.values().stream().map(jobRows -> {
            Row first = jobRows.get(0);
            return new QueuedJob(first.id(), first.team(), first.kind(), first.priority(), first.createdAt(),
                    new PreferenceList(jobRows.stream().map(Row::entry).toList()), first.fallbackAfter(),
                    first.maxRuntime(), first.hint(), first.pendingDeadline(), first.profile(), first.sweep(),
                    first.evaluated(), first.preemptible(), first.gaveWay());
        }).toList();
    }

    /** One job and one of its entries, as the query returns them. */
    private record Row(UUID id, String team, JobKind kind, int priority, Instant createdAt, String profile,
                       UUID sweep, boolean evaluated, Duration fallbackAfter, Duration maxRuntime, Duration hint,
                       Instant pendingDeadline, boolean preemptible, boolean gaveWay, PreferenceEntry entry) {
    }

    private static Duration seconds(Long seconds) {
        return seconds == null ? null : Duration.ofSeconds(seconds);
    }
}
