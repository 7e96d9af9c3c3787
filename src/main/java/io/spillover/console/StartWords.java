package io.spillover.console;

import io.spillover.jobs.EstimatedStart;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.springframework.stereotype.Component;

/**
 * An estimated start in words for the console's pages ({@code @startWords} in templates), in UTC as the charts'
 * time axes are.
 */
@Component
public class StartWords {

    private static final DateTimeFormatter DAY_AND_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);

    /** "2026-12-04 12:40 UTC"; "beyond the horizon" for none. */
    public String when(Instant at) {
        return at == null ? "beyond the forecast's horizon" : DAY_AND_TIME.format(at);
    }

    /** p10 to p90: "12:10 – 13:30 UTC", with the days when they differ. */
    public String range(EstimatedStart estimate) {
        if (estimate.p10() == null || estimate.p90() == null) {
            return when(estimate.p10()) + " – " + when(estimate.p90());
        }
        boolean sameDay = DAY.format(estimate.p10()).equals(DAY.format(estimate.p90()));
        return (sameDay ? TIME.format(estimate.p10()) : DAY_AND_TIME.format(estimate.p10())) + " – "
                + DAY_AND_TIME.format(estimate.p90());
    }

    /** One line for a table: "12:40 UTC (12:10 – 13:30)", "past its deadline" when so; "—" for none yet. */
    public String summary(EstimatedStart estimate) {
        if (estimate == null) {
            return "—";
        }
        if (estimate.p50() == null) {
            return "no start within the horizon";
        }
        return when(estimate.p50()) + " (" + range(estimate) + ")" + (estimate.pastDeadline() ? ", past its deadline" : "");
    }
}
