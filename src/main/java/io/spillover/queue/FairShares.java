package io.spillover.queue;

import io.spillover.catalog.Catalog;
import io.spillover.placement.QueuePolicy;
import io.spillover.placement.TeamShare;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Each team's fair share and expected run times, read from the jobs' history: the decayed usage of runs that
 * ended within ten half-lives (older ones count less than a thousandth), the charge of the runs going on now
 * ({@link TeamShare#charge}), and the median of the team's latest completed runs. The history is read at most
 * every {@link #HISTORY_REFRESH}; what runs now is read on every call, so a start weighs at the next cycle.
 */
@Component
public class FairShares {

    static final Duration HISTORY_REFRESH = Duration.ofSeconds(30);
    /** How many of a team's latest completed runs its expected run time comes from. */
    static final int RUNS_PER_TEAM = 100;

    /**
     * @param shares  per team, weight and usage (ended runs decayed, running ones charged)
     * @param typical per team, the median of its latest completed runs; absent when it has none
     */
    public record Snapshot(Instant at, QueuePolicy policy, Map<String, TeamShare> shares, Map<String, Duration> typical,
                           Duration platformTypical) {

        /**
         * What a job is expected to run: its maximum run time when it gives one (its user's own word on this
         * job), else its team's median (else the platform's); null when none is known.
         */
        public Duration expectedRuntime(String team, Duration maxRuntime) {
            return maxRuntime != null ? maxRuntime : typical.getOrDefault(team, platformTypical);
        }

        /** The team's share of the platform's weight, and of the decayed usage. */
        public double targetShare(String team) {
            int total = shares.values().stream().mapToInt(TeamShare::weight).sum();
            return total == 0 ? 0 : (double) shares.getOrDefault(team, TeamShare.NEW_TEAM).weight() / total;
        }

        public double usageShare(String team) {
            double total = shares.values().stream().mapToDouble(TeamShare::usage).sum();
            return total == 0 ? 0 : shares.getOrDefault(team, TeamShare.NEW_TEAM).usage() / total;
        }
    }

    private record History(Instant readAt, Map<String, Double> endedUsage, Map<String, Duration> typical,
                           Duration platformTypical) {
    }

    private final JdbcClient jdbc;
    private final Catalog catalog;
    private final QueuePolicy policy;
    private final Clock clock;
    private volatile History history;

    FairShares(JdbcClient jdbc, Catalog catalog, QueueProperties properties, Clock clock) {
        this.jdbc = jdbc;
        this.catalog = catalog;
        this.policy = properties.policy();
        this.clock = clock;
    }

    public QueuePolicy policy() {
        return policy;
    }

    public Snapshot read() {
        Instant now = clock.instant();
        History cached = history;
        if (cached == null || cached.readAt().plus(HISTORY_REFRESH).isBefore(now) || cached.readAt().isAfter(now)) {
            cached = readHistory(now);
            history = cached;
        }
        History known = cached;
        Duration halfLife = policy.shareHalfLife();
        Map<String, Double> usage = new HashMap<>();
        known.endedUsage().forEach((team, used) -> usage.put(team, TeamShare.decay(used, known.readAt(), now, halfLife)));
        var typical = known.typical();
        var snapshot = new Snapshot(now, policy, Map.of(), typical, known.platformTypical());
        jdbc.sql("""
                        SELECT team, selected_type, selected_count, max_runtime_seconds FROM jobs
                         WHERE status IN ('STARTING', 'RUNNING', 'STOPPING') AND selected_type IS NOT NULL""")
                .query((rs, n) -> {
                    String team = rs.getString("team");
                    Long max = rs.getObject("max_runtime_seconds", Long.class);
                    double charge = TeamShare.charge(units(rs.getString("selected_type"), rs.getInt("selected_count")),
                            snapshot.expectedRuntime(team, max == null ? null : Duration.ofSeconds(max)), halfLife);
                    usage.merge(team, charge, Double::sum);
                    return team;
                }).list();
        Map<String, TeamShare> shares = new TreeMap<>();
        jdbc.sql("SELECT name, weight FROM teams").query((rs, n) -> shares.put(rs.getString("name"),
                new TeamShare(rs.getInt("weight"), Math.max(0, usage.getOrDefault(rs.getString("name"), 0.0)))))
                .list();
        return new Snapshot(now, policy, shares, typical, known.platformTypical());
    }

    private History readHistory(Instant now) {
        Duration halfLife = policy.shareHalfLife();
        Timestamp since = Timestamp.from(now.minus(halfLife.multipliedBy(10)));
        Map<String, Double> ended = new HashMap<>();
        jdbc.sql("""
                        SELECT team, selected_type,
                               sum(selected_count * (power(0.5, greatest(0, extract(epoch FROM (:now - ended_at))) / :h)
                                   - power(0.5, greatest(0, extract(epoch FROM (:now - started_at))) / :h))) AS usage
                          FROM jobs
                         WHERE ended_at > :since AND started_at IS NOT NULL AND selected_type IS NOT NULL
                         GROUP BY team, selected_type""")
                .param("now", Timestamp.from(now)).param("h", (double) halfLife.toSeconds()).param("since", since)
                .query((rs, n) -> ended.merge(rs.getString("team"), rs.getDouble("usage")
                        * units(rs.getString("selected_type"), 1) * TeamShare.meanLife(halfLife), Double::sum))
                .list();
        Map<String, Duration> typical = new TreeMap<>();
        jdbc.sql("""
                        SELECT team, percentile_disc(0.5) WITHIN GROUP (ORDER BY seconds) AS median
                          FROM (SELECT team, extract(epoch FROM (ended_at - started_at)) AS seconds,
                                       row_number() OVER (PARTITION BY team ORDER BY ended_at DESC) AS latest
                                  FROM jobs
                                 WHERE status = 'COMPLETED' AND ended_at > :since AND started_at IS NOT NULL) runs
                         WHERE latest <= :runs
                         GROUP BY team""")
                .param("since", since).param("runs", RUNS_PER_TEAM)
                .query((rs, n) -> typical.put(rs.getString("team"),
                        Duration.ofSeconds(Math.max(1, Math.round(rs.getDouble("median"))))))
                .list();
        List<Duration> medians = typical.values().stream().sorted().toList();
        return new History(now, ended, typical, medians.isEmpty() ? null : medians.get((medians.size() - 1) / 2));
    }

    private int units(String instanceType, int count) {
        return count * catalog.find(instanceType).map(t -> Math.max(1, t.acceleratorCount())).orElse(1);
    }
}
