package io.spillover.demo;

import io.spillover.catalog.JobKind;
import io.spillover.jobs.JobRequest;
import io.spillover.providers.LocalSettings;
import java.time.Duration;
import java.util.List;

/**
 * What the demo does, step by step, on the demo fleet (one ml.p5.48xlarge, four ml.p4d.24xlarge, two
 * ml.p4de.24xlarge and four ml.g6e.48xlarge in us-east-1): within half a minute a job falls back, a job waits for
 * its first choice and gets it, a queue shows its estimated starts and a job gives up at its deadline; the queue
 * drains in about two minutes. Every job is simulated by the local provider and says how long it runs
 * ({@code expectedRuntimeSeconds}), so the estimates have something to go on.
 */
final class DemoScript {

    static final String VISION = "vision";
    static final String NLP = "nlp";
    static final String P5 = "ml.p5.48xlarge";
    static final String P4D = "ml.p4d.24xlarge";
    static final String P4DE = "ml.p4de.24xlarge";
    static final String G6E = "ml.g6e.48xlarge";

    /** One job of a step: its team, the role that names it ({@code fallback}) and what it asks for. */
    record Submission(String team, String role, JobRequest request) {
    }

    /** What happens at {@code at} after the start: the demo says {@code says}, then submits the jobs. */
    record Step(Duration at, String says, List<Submission> submissions) {
    }

    private DemoScript() {
    }

    /** The steps of a run whose jobs are named {@code demo-<tag>-<role>}. */
    static List<Step> steps(String tag) {
        return List.of(
                new Step(Duration.ZERO, "nlp submits " + name(tag, "p5-holder") + ": 1 × " + P5 + " for 12 s, and "
                        + name(tag, "long") + ": both " + P4DE + " for 90 s. The demo fleet has one p5 and two p4de in"
                        + " us-east-1: these jobs take them.",
                        List.of(job(tag, NLP, "p5-holder", 12, null, null, entry(P5, 1)),
                                job(tag, NLP, "long", 90, null, null, entry(P4DE, 2)))),
                new Step(Duration.ofSeconds(1), "vision submits " + name(tag, "fallback") + ": 2 × " + P5 + ", else 4 × "
                        + P4D + ", else 4 × " + G6E + ", for 60 s. One p5 is not two: it should start at once on its"
                        + " second choice.",
                        List.of(job(tag, VISION, "fallback", 60, null, null, entry(P5, 2), entry(P4D, 4), entry(G6E, 4)))),
                new Step(Duration.ofSeconds(3), "vision submits " + name(tag, "patient") + ": 1 × " + P5 + ", else 2 × "
                        + G6E + ", for 20 s, willing to wait 30 s for its first choice (fallbackAfterSeconds). The g6e"
                        + " are free, but it waits for the p5.",
                        List.of(job(tag, VISION, "patient", 20, null, 30L, entry(P5, 1), entry(G6E, 2)))),
                new Step(Duration.ofSeconds(5), "vision submits " + name(tag, "queue-1") + " to -3: 2 × " + P4D
                        + " each, for 25 s. Its four p4d are busy for a minute, so they queue, each with an estimated"
                        + " start.",
                        List.of(job(tag, VISION, "queue-1", 25, null, null, entry(P4D, 2)),
                                job(tag, VISION, "queue-2", 25, null, null, entry(P4D, 2)),
                                job(tag, VISION, "queue-3", 25, null, null, entry(P4D, 2)))),
                new Step(Duration.ofSeconds(7), "nlp submits " + name(tag, "deadline") + ": both " + P4DE + " for 20 s,"
                        + " giving up after 15 s (maxPendingTimeInSeconds). " + name(tag, "long") + " holds them for"
                        + " another 80 s, so its estimated start lies past its deadline.",
                        List.of(job(tag, NLP, "deadline", 20, 15L, null, entry(P4DE, 2)))));
    }

    static String name(String tag, String role) {
        return "demo-" + tag + "-" + role;
    }

    private static Submission job(String tag, String team, String role, long runSeconds, Long maxPendingSeconds,
                                  Long patienceSeconds, JobRequest.Entry... entries) {
        return new Submission(team, role, new JobRequest(name(tag, role), JobKind.TRAINING, null, List.of(entries),
                null, maxPendingSeconds, null, runSeconds, patienceSeconds, null, null, null, null,
                new LocalSettings(runSeconds, 0), null));
    }

    private static JobRequest.Entry entry(String instanceType, int count) {
        return new JobRequest.Entry(instanceType, count, null, null);
    }

    /** Every job name a run with this tag submits. */
    static List<String> names(String tag) {
        return steps(tag).stream().flatMap(s -> s.submissions().stream()).map(s -> s.request().name()).toList();
    }
}
