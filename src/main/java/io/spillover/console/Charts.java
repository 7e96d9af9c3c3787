package io.spillover.console;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.spillover.jobs.EstimatedStart;
import io.spillover.jobs.JobStatistics.Sample;
import io.spillover.tenancy.TeamView;
import io.spillover.whatif.Figures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.context.MessageSource;
import org.springframework.context.support.MessageSourceAccessor;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The console's charts as specs that the console's chart script draws (frontend/js/charts.js): the figures,
 * axes with their units and series names, not how they look.
 */
@Component
class Charts {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final long[] WAIT_BOUNDS = {1, 10, 60, 600, 3600, Long.MAX_VALUE};
    private static final List<String> WAIT_BUCKETS = List.of("< 1 s", "1–10 s", "10 s–1 min", "1–10 min",
            "10 min–1 h", "≥ 1 h");

    /** One chart; fields a kind does not use are null and left out of the spec. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Chart(String kind, String title, Axis x, Axis y, List<String> categories, List<Series> series,
                 Boolean horizontal, Boolean stack) {

        /** The spec for the page's {@code data-chart} attribute. */
        public String json() {
            return JSON.writeValueAsString(this);
        }

        /** Whether there is nothing to see yet: no series, or only zeros. */
        public boolean empty() {
            return series.stream().flatMap(s -> s.data().stream())
                    .allMatch(value -> value instanceof Number n && n.longValue() == 0);
        }
    }

    /** An axis's name and unit ("time", "UTC"), and for a time axis the window it spans, in epoch ms. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Axis(String name, String unit, Long min, Long max) {

        static Axis named(String name) {
            return new Axis(name, null, null, null);
        }
    }

    /** A named series: values for a bar chart's categories, or [epoch ms, value] points over time. */
    public record Series(String name, List<?> data) {
    }

    private final MessageSourceAccessor messages;

    Charts(MessageSource messages) {
        this.messages = new MessageSourceAccessor(messages);
    }

    /** How many jobs waited how long before placement, in buckets from under a second to an hour and more. */
    Chart waitHistogram(List<Long> waits) {
        var counts = new ArrayList<Long>();
        for (int i = 0; i < WAIT_BOUNDS.length; i++) {
            long low = i == 0 ? Long.MIN_VALUE : WAIT_BOUNDS[i - 1];
            long high = WAIT_BOUNDS[i];
            counts.add(waits.stream().filter(wait -> wait >= low && wait < high).count());
        }
        return new Chart("bar", text("chart.wait.title"), Axis.named(text("chart.wait.x")),
                Axis.named(text("chart.wait.y")), WAIT_BUCKETS, List.of(new Series(text("chart.wait.y"), counts)),
                null, null);
    }

    /** Instances in use over a window, sampled at steps: one stacked series per team that used any. */
    Chart instancesOverTime(Map<String, List<Sample>> byTeam, Instant from, Instant to) {
        var series = byTeam.entrySet().stream()
                .map(team -> new Series(team.getKey(), team.getValue().stream()
                        .map(s -> List.of(s.at().toEpochMilli(), s.instances())).toList()))
                .toList();
        return new Chart("line", text("chart.use.title"),
                new Axis(text("chart.use.x"), "UTC", from.toEpochMilli(), to.toEpochMilli()),
                Axis.named(text("chart.use.y")), null, series, null, true);
    }

    /** Each team's instances in use beside its quota, per instance type the quota names. */
    Chart usageAgainstQuota(List<TeamView> teams) {
        var categories = new ArrayList<String>();
        var inUse = new ArrayList<Integer>();
        var quota = new ArrayList<Integer>();
        for (TeamView team : teams) {
            team.quotas().instanceLimits().forEach((type, limit) -> {
                categories.add(teams.size() == 1 ? type : team.name() + " · " + type);
                inUse.add(team.usage().instancesInUse().getOrDefault(type, 0));
                quota.add(limit);
            });
        }
        return new Chart("bar", text("chart.usage.title"), Axis.named(text("chart.usage.x")),
                Axis.named(text(teams.size() == 1 ? "chart.usage.y" : "chart.usage.y.teams")), categories,
                List.of(new Series(text("chart.usage.inUse"), inUse), new Series(text("chart.usage.quota"), quota)),
                true, null);
    }

    /**
     * The waits of a what-if run's two sides as CDFs in one chart: the share of all jobs started within each wait,
     * the wait in the unit that suits the longest of them.
     */
    Chart waitCdf(Figures baseline, Figures change) {
        long longest = Math.max(baseline.waits().max(), change.waits().max());
        long unit = longest >= 2 * 86_400 ? 86_400 : longest >= 2 * 3600 ? 3600 : longest >= 120 ? 60 : 1;
        String unitName = unit == 86_400 ? "d" : unit == 3600 ? "h" : unit == 60 ? "min" : "s";
        return new Chart("cdf", text("chart.whatif.title"), new Axis(text("chart.whatif.x"), unitName, null, null),
                new Axis(text("chart.whatif.y"), "%", null, null), null,
                List.of(new Series(text("chart.whatif.baseline"), points(baseline, unit)),
                        new Series(text("chart.whatif.change"), points(change, unit))), null, null);
    }

    /** An interval chart's spec: rows of p10, p50 and p90 as a band and a point, against a marker. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record IntervalChart(String kind, String title, Axis x, Axis y, List<Row> rows, String band, String mid,
                                Marker marker) {

        public String json() {
            return JSON.writeValueAsString(this);
        }

        public boolean empty() {
            return rows.isEmpty();
        }
    }

    /** One row of an interval chart, its times in epoch ms. */
    public record Row(String label, long low, long mid, long high) {
    }

    public record Marker(String name, long at) {
    }

    /**
     * A pending job's estimated start (p10 to p90, and the median) against the moment its maximum pending time runs
     * out; null when the estimate has no start to draw (no future of the forecast starts it).
     */
    IntervalChart startEstimate(EstimatedStart estimate, Instant deadline) {
        if (estimate == null || estimate.p10() == null || estimate.p50() == null || estimate.p90() == null) {
            return null;
        }
        return new IntervalChart("interval", text("chart.estimate.title"), new Axis(text("chart.estimate.x"), "UTC",
                null, null), Axis.named(""), List.of(new Row(text("chart.estimate.row"), estimate.p10().toEpochMilli(),
                estimate.p50().toEpochMilli(), estimate.p90().toEpochMilli())), text("chart.estimate.band"),
                text("chart.estimate.mid"), deadline == null ? null
                : new Marker(text("chart.estimate.deadline"), deadline.toEpochMilli()));
    }

    private static List<List<Number>> points(Figures figures, long unit) {
        return figures.waitCdf().stream().map(p -> List.<Number>of(unit == 1 ? p.waitSeconds()
                : Math.round(p.waitSeconds() * 1000.0 / unit) / 1000.0, p.share())).toList();
    }

    private String text(String key) {
        return messages.getMessage(key);
    }
}
