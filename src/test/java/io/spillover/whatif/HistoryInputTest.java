package io.spillover.whatif;

import static io.spillover.whatif.WhatIfFixtures.EAST;
import static io.spillover.whatif.WhatIfFixtures.G5;
import static io.spillover.whatif.WhatIfFixtures.P4D;
import static io.spillover.whatif.WhatIfFixtures.P5;
import static io.spillover.whatif.WhatIfFixtures.onDemand;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillover.catalog.JobKind;
import io.spillover.jobs.JobStatus;
import io.spillover.jobs.RecordedJob;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.PreferenceEntry;
import io.spillover.replay.Fleet;
import io.spillover.replay.Holding;
import io.spillover.replay.ReplayJob;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.Violation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The platform's own jobs of a window, read as a replay's input. */
class HistoryInputTest {

    static final Instant FROM = Instant.parse("2026-12-01T00:00:00Z");
    static final Instant TO = Instant.parse("2026-12-02T00:00:00Z");
    static final Instant NOW = Instant.parse("2026-12-03T00:00:00Z");

    private final Fleet fleet = WhatIfFixtures.baseline().fleet();

    @Test
    void aJobThatRanIsReplayedAsRecordedItsRunTheSameOnEveryEntry() {
        RecordedJob ran = recorded("llama", "vision", JobStatus.COMPLETED, 90, 300, 3_900, P4D, 4,
                onDemand(P5, 2, EAST), onDemand(P4D, 4, EAST), onDemand(G5, 4, EAST));

        Prepared prepared = HistoryInput.of(FROM, TO, NOW, List.of(ran), List.of(), fleet);

        ReplayJob job = prepared.jobs().get(0);
        assertThat(job.id()).isEqualTo("vision/llama");
        assertThat(job.submitSeconds()).isEqualTo(90);
        assertThat(job.choices()).containsExactly(onDemand(P5, 2, EAST), onDemand(P4D, 4, EAST), onDemand(G5, 4, EAST));
        assertThat(job.runSeconds()).isEqualTo(Map.of(P5, 3_600L, P4D, 3_600L, G5, 3_600L));
        assertThat(job.priority()).isEqualTo(3);
        assertThat(job.profile()).isEqualTo("big");
        assertThat(job.maxRuntime()).isEqualTo(Duration.ofHours(2));
        assertThat(job.fallbackAfter()).isEqualTo(Duration.ofMinutes(10));
        assertThat(job.accelerators()).isEqualTo(16);
        assertThat(prepared.skipped()).isEmpty();
        assertThat(prepared.assumptions().get(0)).contains("as long on every entry of its list");
    }

    @Test
    void jobsThatNeverRanOrWhoseTeamIsGoneAreLeftOutAndCountedAndOneRunningStillCountsItsRunSoFar() {
        List<RecordedJob> window = List.of(
                recorded("pending", "vision", JobStatus.PENDING, 0, null, null, null, null, onDemand(P5, 1, EAST)),
                recorded("timed-out", "vision", JobStatus.STOPPED, 10, null, null, null, null, onDemand(P5, 1, EAST)),
                recorded("orphan", "gone", JobStatus.COMPLETED, 20, 20, 80, P5, 1, onDemand(P5, 1, EAST)),
                recorded("running", "nlp", JobStatus.RUNNING, 30, 40, null, P4D, 1, onDemand(P4D, 1, EAST)));

        Prepared prepared = HistoryInput.of(FROM, TO, NOW, window, List.of(), fleet);

        assertThat(prepared.jobs()).extracting(ReplayJob::id).containsExactly("nlp/running");
        assertThat(prepared.jobs().get(0).runSeconds(P4D)).isEqualTo(Duration.between(FROM.plusSeconds(40), NOW)
                .toSeconds());
        assertThat(prepared.skipped()).extracting(Skipped::jobs).containsExactly(1, 1, 1);
        assertThat(prepared.skipped()).extracting(Skipped::examples).containsExactly(List.of("vision/pending"),
                List.of("vision/timed-out"), List.of("gone/orphan"));
        assertThat(prepared.assumptions()).anyMatch(a -> a.startsWith("1 job(s) of the window run still"));
    }

    @Test
    void runsFromBeforeTheWindowHoldTheirInstancesFromItsStartUntilTheyEnded() {
        RecordedJob earlier = new RecordedJob(UUID.randomUUID(), "vision", "earlier", JobKind.TRAINING, 0, null,
                List.of(onDemand(P5, 1, EAST)), JobStatus.COMPLETED, FROM.minusSeconds(100), FROM.minusSeconds(50),
                FROM.plusMillis(4_500), OfferingKey.onDemand(EAST, P5), 1, null, null);
        RecordedJob ran = recorded("now", "vision", JobStatus.COMPLETED, 0, 10, 70, P5, 1, onDemand(P5, 1, EAST));

        Prepared prepared = HistoryInput.of(FROM, TO, NOW, List.of(ran), List.of(earlier), fleet);

        assertThat(prepared.holdings()).containsExactly(new Holding("vision", onDemand(P5, 1, EAST), 5));
        assertThat(prepared.assumptions()).contains(HistoryInput.BEFORE);
    }

    @Test
    void aWindowWithNoJobOrNoneThatRanIsRefusedNamingTheInput() {
        assertThatThrownBy(() -> HistoryInput.of(FROM, TO, NOW, List.of(), List.of(), fleet))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.violations())
                        .containsExactly(new Violation("input", "no job was submitted from " + FROM + " to " + TO)));
        var never = List.of(recorded("p", "vision", JobStatus.PENDING, 0, null, null, null, null, onDemand(P5, 1, EAST)));
        assertThatThrownBy(() -> HistoryInput.of(FROM, TO, NOW, never, List.of(), fleet))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.violations().get(0).message())
                        .contains("none ran"));
    }

    /** A job of the window: submitted {@code submit} s after its start, and if it started, where and when. */
    private static RecordedJob recorded(String name, String team, JobStatus status, long submit, Integer started,
                                        Integer ended, String ranOn, Integer instances, PreferenceEntry... entries) {
        return new RecordedJob(UUID.randomUUID(), team, name, JobKind.TRAINING, name.equals("llama") ? 3 : 0,
                name.equals("llama") ? "big" : null, List.of(entries), status, FROM.plusSeconds(submit),
                started == null ? null : FROM.plusSeconds(started), ended == null ? null : FROM.plusSeconds(ended),
                ranOn == null ? null : OfferingKey.onDemand(EAST, ranOn), instances,
                name.equals("llama") ? Duration.ofHours(2) : null, name.equals("llama") ? Duration.ofMinutes(10) : null);
    }
}
