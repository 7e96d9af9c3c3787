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
import io.spillover.scheduling.Leadership;
import io.spillover.system.DatabaseFailures;
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
 * pending jobs per team, offering and plan utilization, and whether this instance schedules. Gauges over the
 * database are refreshed every few seconds, not on each scrape.
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

    SpilloverMetrics(MeterRegistry registry, CapacityService capacity, JdbcClient jdbc, Leadership leadership) {
        this.registry = registry;
        this.capacity = capacity;
        this.jdbc = jdbc;
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
    }

    private static Tags tags(Offering o) {
        return Tags.of("region", o.key().region(), "instance_type", o.key().instanceType(), "source", o.key().source());
    }
}
