package io.spillover.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.jobs.JobStatistics.Sample;
import io.spillover.tenancy.Queueing;
import io.spillover.tenancy.TeamView;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.springframework.context.support.ResourceBundleMessageSource;

/** The dashboard's chart specs: buckets, series and axes as the chart script gets them. */
class ChartsTest {

    private final Charts charts = new Charts(messages());

    @Test
    void countsEachWaitInTheBucketWhoseUpperBoundItIsUnder() {
        var chart = charts.waitHistogram(List.of(0L, 1L, 9L, 10L, 59L, 60L, 3599L, 3600L, 86_400L));

        assertThat(chart.categories()).containsExactly("< 1 s", "1–10 s", "10 s–1 min", "1–10 min", "10 min–1 h",
                "≥ 1 h");
        assertThat(chart.series()).singleElement().satisfies(series -> {
            assertThat(series.name()).isEqualTo("jobs");
            assertThat(series.data()).isEqualTo(List.of(1L, 2L, 2L, 1L, 1L, 2L));
        });
        assertThat(chart.empty()).isFalse();
        assertThat(charts.waitHistogram(List.of()).empty()).isTrue();
    }

    @Test
    void instancesOverTimeAreStackedPerTeamOnATimeAxisSpanningTheWindow() {
        Instant from = Instant.parse("2026-01-15T10:00:00Z");
        Instant to = from.plusSeconds(600);
        var byTeam = new TreeMap<String, List<Sample>>(Map.of("nlp", List.of(new Sample(from, 0),
                new Sample(from.plusSeconds(300), 2), new Sample(to, 4))));

        var chart = charts.instancesOverTime(byTeam, from, to);

        assertThat(chart.json()).isEqualTo("""
                {"kind":"line","title":"Instances in use by team, last hour",\
                "x":{"name":"time","unit":"UTC","min":1768471200000,"max":1768471800000},"y":{"name":"instances"},\
                "series":[{"name":"nlp","data":[[1768471200000,0],[1768471500000,2],[1768471800000,4]]}],\
                "stack":true}""");
        assertThat(charts.instancesOverTime(new TreeMap<>(), from, to).empty()).isTrue();
    }

    @Test
    void usageNamesTheTeamBesideTheTypeOnlyWhenThereAreSeveralTeams() {
        var vision = team("vision", Map.of("ml.p5.48xlarge", 2), Map.of("ml.p5.48xlarge", 1));
        var nlp = team("nlp", Map.of("ml.g6e.48xlarge", 4), Map.of());

        var one = charts.usageAgainstQuota(List.of(vision));
        var two = charts.usageAgainstQuota(List.of(vision, nlp));

        assertThat(one.categories()).containsExactly("ml.p5.48xlarge");
        assertThat(one.y().name()).isEqualTo("instance type");
        assertThat(two.categories()).containsExactly("vision · ml.p5.48xlarge", "nlp · ml.g6e.48xlarge");
        assertThat(two.y().name()).isEqualTo("team · instance type");
        assertThat(two.series()).extracting(Charts.Series::name).containsExactly("in use", "quota");
        assertThat(two.series()).extracting(Charts.Series::data).containsExactly(List.of(1, 0), List.of(2, 4));
        assertThat(two.horizontal()).isTrue();
    }

    private static TeamView team(String name, Map<String, Integer> limits, Map<String, Integer> inUse) {
        return new TeamView(name, name, 1, Queueing.BEST_EFFORT_FIFO, new TeamView.Quotas(limits, null, null),
                new TeamView.Usage(inUse, 0, 0), null, null);
    }

    private static ResourceBundleMessageSource messages() {
        var messages = new ResourceBundleMessageSource();
        messages.setBasename("messages");
        messages.setDefaultEncoding("UTF-8");
        return messages;
    }
}
