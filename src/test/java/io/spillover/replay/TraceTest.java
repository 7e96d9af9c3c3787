package io.spillover.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraceTest {

    @Test
    void readsTheColumnsByNameInAnyOrderIgnoringOthersAndQuotes() {
        var csv = """
                team,job_id,extra,gpus,submit_time_s,job_type,duration_s_v100,duration_s_p100,duration_s_k80
                a1,a1-00000,x,4,120,"ResNet-50, batch size 16",100,250.5,700
                """;

        assertThat(Trace.read(new StringReader(csv))).containsExactly(
                new TraceJob("a1-00000", "a1", 120, 4, "ResNet-50, batch size 16", 700, 251, 100));
    }

    @Test
    void namesTheMissingColumns() {
        assertThatThrownBy(() -> Trace.read(new StringReader("job_id,team,gpus\n")))
                .hasMessageContaining("[submit_time_s, duration_s_k80, duration_s_p100, duration_s_v100]");
    }

    @Test
    void aTraceWithOneDurationAndNoJobTypeReplaysTooItsDurationStandingForEveryGeneration() {
        var csv = """
                job_id,team,submit_time_s,gpus,duration_s
                x-1,x,0,2,3600
                """;

        assertThat(Trace.read(new StringReader(csv))).containsExactly(new TraceJob("x-1", "x", 0, 2, "", 3600, 3600, 3600));
    }

    @Test
    void aMalformedRowIsRefusedNamingItsLineAndColumn() {
        String header = "job_id,team,submit_time_s,gpus,duration_s\n";

        assertThat(refusal(header + "a,x,0,1,60\nb,x,ten,1,60\n")).satisfies(e -> {
            assertThat(e.line()).isEqualTo(3);
            assertThat(e.column()).isEqualTo("submit_time_s");
            assertThat(e.getMessage()).isEqualTo("trace line 3, column submit_time_s: must be a number, not \"ten\"");
        });
        assertThat(refusal(header + "a,x,0,1.5,60\n")).extracting(TraceException::line, TraceException::column)
                .containsExactly(2, "gpus");
        assertThat(refusal(header + "a,x,0,1,0\n")).extracting(TraceException::column).isEqualTo("duration_s");
        assertThat(refusal(header + "a,x,-5,1,60\n")).extracting(TraceException::column).isEqualTo("submit_time_s");
        assertThat(refusal(header + "a,x,0,1\n")).satisfies(e -> {
            assertThat(e.column()).isNull();
            assertThat(e.problem()).isEqualTo("has 4 field(s), the header 5");
        });
        assertThat(refusal(header + "a,x,0,1,60\n\na,y,5,1,60\n")).satisfies(e -> {
            assertThat(e.line()).isEqualTo(4);
            assertThat(e.problem()).isEqualTo("job a is on line 2 already");
        });
        assertThat(refusal("")).extracting(TraceException::line).isEqualTo(1);
    }

    private static TraceException refusal(String csv) {
        try {
            Trace.read(new StringReader(csv));
        } catch (TraceException e) {
            return e;
        }
        throw new AssertionError("read without complaint: " + csv);
    }

    @Test
    void aWindowKeepsTheEarliestJobsAndSaysWhatItLeftOut() {
        List<TraceJob> trace = List.of(Fixtures.job("c", "t", 90_000, 1, 60), Fixtures.job("b", "t", 10, 1, 60),
                Fixtures.job("a", "t", 10, 1, 60), Fixtures.job("d", "t", 200_000, 1, 60));

        assertThat(Window.firstDays(1).select(trace)).extracting(TraceJob::id).containsExactly("a", "b");
        assertThat(new Window(null, 3).select(trace)).extracting(TraceJob::id).containsExactly("a", "b", "c");
        assertThat(Window.firstDays(1).describe(2, 4)).contains("2 of 4 jobs").contains("2 later jobs not replayed");
        assertThat(Window.WHOLE_TRACE.describe(4, 4)).isEqualTo("the whole trace: all 4 jobs");
    }

    @Test
    void shiftingTeamsMovesEachTeamsJobsByOneOffsetWithinTheDaysAndKeepsSubmissionOrder() {
        List<TraceJob> trace = List.of(Fixtures.job("a1", "a", 0, 1, 60), Fixtures.job("b1", "b", 5, 1, 60),
                Fixtures.job("a2", "a", 100, 1, 60), Fixtures.job("b2", "b", 400, 1, 60));

        List<TraceJob> shifted = Trace.shiftTeams(trace, 3, 14);

        assertThat(shifted).extracting(TraceJob::id).containsExactlyInAnyOrder("a1", "a2", "b1", "b2");
        assertThat(shifted).isSortedAccordingTo(java.util.Comparator.comparingLong(TraceJob::submitSeconds));
        long a = at(shifted, "a1");
        long b = at(shifted, "b1") - 5;
        assertThat(at(shifted, "a2") - a).isEqualTo(100);
        assertThat(at(shifted, "b2") - b).isEqualTo(400);
        assertThat(List.of(a, b)).allSatisfy(offset -> assertThat(offset).isBetween(0L, 14 * 86_400L));
        assertThat(a).as("teams move apart").isNotEqualTo(b);
        assertThat(Trace.shiftTeams(trace, 3, 14)).as("the seed decides").isEqualTo(shifted);
    }

    private static long at(List<TraceJob> jobs, String id) {
        return jobs.stream().filter(j -> j.id().equals(id)).findFirst().orElseThrow().submitSeconds();
    }
}
