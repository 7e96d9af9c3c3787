package io.spillover.bench.replay;

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
    void aWindowKeepsTheEarliestJobsAndSaysWhatItLeftOut() {
        List<TraceJob> trace = List.of(Fixtures.job("c", "t", 90_000, 1, 60), Fixtures.job("b", "t", 10, 1, 60),
                Fixtures.job("a", "t", 10, 1, 60), Fixtures.job("d", "t", 200_000, 1, 60));

        assertThat(Window.firstDays(1).select(trace)).extracting(TraceJob::id).containsExactly("a", "b");
        assertThat(new Window(null, 3).select(trace)).extracting(TraceJob::id).containsExactly("a", "b", "c");
        assertThat(Window.firstDays(1).describe(2, 4)).contains("2 of 4 jobs").contains("2 later jobs not replayed");
        assertThat(Window.WHOLE_TRACE.describe(4, 4)).isEqualTo("the whole trace: all 4 jobs");
    }
}
