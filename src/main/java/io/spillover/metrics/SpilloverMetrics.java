package io.spillover.metrics;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.spillover.capacity.CapacityService;
import io.spillover.capacity.Offering;
import io.spillover.jobs.JobPlaced;
import io.spillover.jobs.JobStatus;
import io.spillover.jobs.JobTransitioned;
import io.spillover.jobs.StatusReason;
import io.spillover.scheduling.Leadership;
import io.spillover.system.DatabaseFailures;
import io.spillover.tenancy.TeamService;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * The meters behind {@code /actuator/prometheus}: time to placement by entry and source, fallback depth,
 * pending jobs per team, offering and plan utilization, instances borrowed and lent per team and type,
 * preemptions, and whether this instance schedules. Gauges over the database are refreshed every few seconds, not
 * on each scrape.
 */
@Component
class SpilloverMetrics {

    private static final Logger log = LoggerFactory.getLogger(SpilloverMetrics.class);

    private final MeterRegistry registry;
    private final CapacityService capacity;
    private final JdbcClient jdbc;
    private final MultiGauge pending;
    private final MultiGauge utilization;
    private final DistributionSummary fallbackDepth;
    private final TeamService teams;
    private final MultiGauge borrowed;
    private final MultiGauge lent;

    SpilloverMetrics(MeterRegistry registry, CapacityService capacity, JdbcClient jdbc, Leadership leadership,
                     TeamService teams) {
        this.registry = registry;
        this.capacity = capacity;
        this.jdbc = jdbc;
        this.teams = teams;
        this.borrowed = MultiGauge.builder("spillover.team.instances.borrowed")
                .description("Instances a team holds beyond its guarantee (quota), per instance type").register(registry);
        this.lent = MultiGauge.builder("spillover.team.instances.lent")
                .description("Instances of a team's idle guarantee that other teams' borrowed instances stand on")
                .register(registry);
        this.pending = MultiGauge.builder("spillover.jobs.pending").description("Jobs waiting for capacity, per team")
                .register(registry);
        this.utilization = MultiGauge.builder("spillover.offering.utilization")
                .description("Share of an offering's instances in use; source plan:<name> for training plans")
                .register(registry);
        this.fallbackDepth = DistributionSummary.builder("spillover.placement.fallback.depth")
                .description("Entry index a job was placed on: 0 for its first choice").register(registry);
        Gauge.builder("spillover.leader", leadership, l -> l.leading() ? 1 : 0)
                .description("1 while this instance is the scheduler").register(registry);
    }

    @TransactionalEventListener(fallbackExecution = true)
    void placed(JobPlaced placed) {
        String source = placed.source().startsWith("plan:") ? "plan" : "on-demand";
        Timer.builder("spillover.placement.time").description("From submission to placement")
                .tags("entry", Integer.toString(placed.index()), "source", source)
                .publishPercentileHistogram().register(registry).record(placed.waited());
        fallbackDepth.record(placed.index());
    }

    /** A job is being preempted: stopped to give borrowed instances back to a team below its guarantee. */
    @TransactionalEventListener(fallbackExecution = true)
    void transitioned(JobTransitioned change) {
        if (change.status() == JobStatus.STOPPING && change.transition().reason() == StatusReason.PREEMPTED) {
            registry.counter("spillover.jobs.preempted", "team", change.team()).increment();
        }
    }

    @Scheduled(fixedDelayString = "${spillover.metrics.refresh:5s}", initialDelay = 0)
    void refresh() {
        try {
            refreshGauges();
        } catch (RuntimeException e) {
            if (!DatabaseFailures.isOutage(e)) {
                throw e;
            }
            log.warn("Gauges not refreshed, the database cannot be reached: {}", e.getMessage());
        }
    }

    private void refreshGauges() {
        List<Map<String, Object>> counts = jdbc.sql("SELECT team, count(*) AS n FROM jobs WHERE status = 'PENDING'"
                + " GROUP BY team").query().listOfRows();
        pending.register(counts.stream().map(row -> MultiGauge.Row.of(Tags.of("team", (String) row.get("team")),
                ((Number) row.get("n")).doubleValue())).toList(), true);
        utilization.register(capacity.offerings().stream().filter(o -> o.total() > 0)
                .map(o -> MultiGauge.Row.of(tags(o), (double) o.inUse() / o.total())).toList(), true);
        TeamService.Loans loans = teams.loans();
        borrowed.register(rows(loans.borrowed()), true);
        lent.register(rows(loans.lent()), true);
    }

    private static List<MultiGauge.Row<?>> rows(Map<String, Map<String, Integer>> byTeam) {
        var rows = new java.util.ArrayList<MultiGauge.Row<?>>();
        byTeam.forEach((team, byType) -> byType.forEach((type, n) ->
                rows.add(MultiGauge.Row.of(Tags.of("team", team, "instance_type", type), n))));
        return rows;
    }

    private static Tags tags(Offering o) {
        return Tags.of("region", o.key().region(), "instance_type", o.key().instanceType(), "source", o.key().source());
    }
}
