package io.spillover.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.fleet.Evidence.Acknowledged;
import io.spillover.fleet.Evidence.Entry;
import io.spillover.fleet.Evidence.StoredJob;
import io.spillover.fleet.Evidence.Takeover;
import io.spillover.fleet.Evidence.Transition;
import io.spillover.providers.sagemaker.FakeSageMaker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The chaos test's checker can fail: fed made-up histories with a breach, it names the breach. */
class InvariantsTest {

    static final String P4D = "us-east-1/ml.p4d.24xlarge/on-demand";
    static final UUID FIRST = UUID.fromString("00000000-0000-0000-0000-000000000001");
    static final UUID SECOND = UUID.fromString("00000000-0000-0000-0000-000000000002");

    private final Run run = new Run();

    @Test
    void findsNothingWrongWithJobsThatTookTurns() {
        run.job(FIRST, "first", 2).placed(FIRST, 1).running(FIRST, 1).completed(FIRST, 1);
        run.job(SECOND, "second", 2).placed(SECOND, 1).running(SECOND, 1).completed(SECOND, 1);

        assertThat(Invariants.check(run.evidence())).isEmpty();
    }

    @Test
    void talliesTheBreachesAsTheChaosSummaryCountsThem() {
        run.job(FIRST, "first", 2).placed(FIRST, 1).running(FIRST, 1);
        run.job(SECOND, "second", 1).placed(SECOND, 1);
        run.completed(FIRST, 1);
        run.running(SECOND, 1).ended(SECOND, 1, "COMPLETED", "COMPLETED");
        run.created(SECOND, 1).created(SECOND, 2);
        run.provider(SECOND, 1, "InProgress").provider(SECOND, 2, "InProgress")
                .provider(SECOND, 1, "Completed").provider(SECOND, 2, "Completed");

        assertThat(Invariants.tally(Invariants.check(run.evidence())))
                .containsExactly(Map.entry("lost", 0L), Map.entry("doubled", 1L), Map.entry("overbooked", 2L),
                        Map.entry("other", 1L));
        assertThat(Invariants.tally(List.of("job lost: client token t of team a was acknowledged as job j, but the"
                + " database has 0 job(s) with that token", "client token t of team a was acknowledged as job j,"
                + " but its job is k", "slow takeover: ..."))).containsExactly(Map.entry("lost", 2L),
                Map.entry("doubled", 0L), Map.entry("overbooked", 0L), Map.entry("other", 1L));
        assertThat(Invariants.tally(List.of())).containsOnly(Map.entry("lost", 0L), Map.entry("doubled", 0L),
                Map.entry("overbooked", 0L), Map.entry("other", 0L));
    }

    @Test
    void reportsAnOverbookingAtTheTransitionThatMadeItAndADuplicateLaunch() {
        run.job(FIRST, "first", 2).placed(FIRST, 1).running(FIRST, 1);
        run.job(SECOND, "second", 1).placed(SECOND, 1); // transition 5: 3 of 2 instances held
        run.completed(FIRST, 1);
        run.running(SECOND, 1).ended(SECOND, 1, "COMPLETED", "COMPLETED");
        run.created(SECOND, 1).created(SECOND, 2); // a second provider job of the same job...
        run.provider(SECOND, 1, "InProgress").provider(SECOND, 2, "InProgress") // ...running beside the first
                .provider(SECOND, 1, "Completed").provider(SECOND, 2, "Completed");

        assertThat(Invariants.check(run.evidence())).containsExactly(
                "provider job " + Run.name(SECOND, 2) + " is attempt 2 of job team/second (" + SECOND
                        + "), which the database never started",
                "launched twice: job team/second (" + SECOND + ") had provider jobs [" + Run.name(SECOND, 1) + ", "
                        + Run.name(SECOND, 2) + "] in progress at once at " + Run.at(4) + " (provider change #4)",
                "overbooked: offering " + P4D + " held 3 of 2 instances after transition #5 at " + Run.at(5)
                        + " placed job team/second (" + SECOND + "); holding: [2 x " + P4D + " for team/first ("
                        + FIRST + "), 1 x " + P4D + " for team/second (" + SECOND + ")]",
                "overbooked: team quota team/ml.p4d.24xlarge held 3 of 2 instances after transition #5 at " + Run.at(5)
                        + " placed job team/second (" + SECOND + "); holding: [2 x " + P4D + " for team/first ("
                        + FIRST + "), 1 x " + P4D + " for team/second (" + SECOND + ")]");
    }

    @Test
    void reportsAnAcknowledgedJobTheDatabaseDoesNotHave() {
        run.job(FIRST, "first", 1).placed(FIRST, 1).running(FIRST, 1).completed(FIRST, 1);
        run.acknowledged.add(new Acknowledged("team", "token-lost", "lost"));

        assertThat(Invariants.check(run.evidence())).containsExactly("job lost: client token token-lost of team team was"
                + " acknowledged as job lost, but the database has 0 job(s) with that token");
    }

    @Test
    void reportsAJobLeftStartingAndOneThatEndedOtherwiseThanOnTheProvider() {
        run.job(FIRST, "first", 1).placed(FIRST, 1);
        run.job(SECOND, "second", 1).placed(SECOND, 1).running(SECOND, 1).ended(SECOND, 1, "FAILED", "LOST_BY_PROVIDER");
        run.status.put(FIRST, "STARTING");
        run.provider(SECOND, 1, "InProgress").provider(SECOND, 1, "Completed");

        assertThat(Invariants.check(run.evidence())).containsExactly(
                "offering " + P4D + ": the audit log leaves 1 instance(s) in use, its counter says 0",
                "job team/first (" + FIRST + ") is still STARTING",
                "job team/second (" + SECOND + ") ended FAILED (LOST_BY_PROVIDER), but the provider's job "
                        + Run.name(SECOND, 1) + " is Completed");
    }

    @Test
    void reportsASlowTakeover() {
        run.takeovers.add(new Takeover("kill 3", "spillover-3", "spillover-4", Duration.ofMillis(10_400)));

        assertThat(Invariants.check(run.evidence())).containsExactly("slow takeover: after kill 3 killed leader"
                + " spillover-3, spillover-4 held the lock only 10400 ms later (limit 10 s)");
    }

    /** A made-up run on one team with 2 x p4d of quota and an offering of 2 x p4d. */
    private static final class Run {

        static final Instant T0 = Instant.parse("2026-12-02T10:00:00Z");

        final List<Acknowledged> acknowledged = new ArrayList<>();
        final Map<UUID, String> names = new LinkedHashMap<>();
        final Map<UUID, Integer> counts = new HashMap<>();
        final Map<UUID, String> status = new HashMap<>();
        final Map<UUID, String> reason = new HashMap<>();
        final Map<UUID, Integer> attempts = new HashMap<>();
        final List<Transition> transitions = new ArrayList<>();
        final List<FakeSageMaker.Create> creates = new ArrayList<>();
        final List<FakeSageMaker.StatusChange> changes = new ArrayList<>();
        final List<Takeover> takeovers = new ArrayList<>();

        static Instant at(long second) {
            return T0.plusSeconds(second);
        }

        static String name(UUID job, int attempt) {
            return "spl-" + job.toString().replace("-", "") + "-" + attempt;
        }

        Run job(UUID id, String name, int count) {
            names.put(id, name);
            counts.put(id, count);
            acknowledged.add(new Acknowledged("team", "token-" + name, name));
            return transition(id, null, "PENDING", "SUBMITTED", "submitted", 0);
        }

        Run placed(UUID id, int attempt) {
            attempts.put(id, attempt);
            return transition(id, "PENDING", "STARTING", "PLACED", "placed on entry 0: " + counts.get(id)
                    + " x ml.p4d.24xlarge in us-east-1 (on-demand)", attempt);
        }

        Run running(UUID id, int attempt) {
            return transition(id, "STARTING", "RUNNING", "LAUNCHED", "SageMaker InProgress/Training", attempt);
        }

        Run completed(UUID id, int attempt) {
            created(id, attempt).provider(id, attempt, "InProgress").provider(id, attempt, "Completed");
            return ended(id, attempt, "COMPLETED", "COMPLETED");
        }

        Run ended(UUID id, int attempt, String end, String why) {
            status.put(id, end);
            reason.put(id, why);
            return transition(id, "RUNNING", end, why, "ended", attempt);
        }

        Run created(UUID id, int attempt) {
            creates.add(new FakeSageMaker.Create(name(id, attempt), "ml.p4d.24xlarge", counts.get(id),
                    at(creates.size()), true));
            return this;
        }

        Run provider(UUID id, int attempt, String providerStatus) {
            changes.add(new FakeSageMaker.StatusChange(changes.size() + 1, at(changes.size() + 1), name(id, attempt),
                    "ml.p4d.24xlarge", counts.get(id), providerStatus, null));
            return this;
        }

        private Run transition(UUID id, String from, String to, String why, String message, int attempt) {
            long number = transitions.size() + 1;
            transitions.add(new Transition(number, id, "team", at(number), from, to, why, message, attempt));
            return this;
        }

        Evidence evidence() {
            var jobs = new ArrayList<StoredJob>();
            names.forEach((id, name) -> jobs.add(new StoredJob(id, "team", name, "token-" + name,
                    status.getOrDefault(id, "PENDING"), reason.get(id), attempts.getOrDefault(id, 0),
                    List.of(new Entry(0, "ml.p4d.24xlarge", counts.get(id), "us-east-1", null)), null)));
            var limits = new Evidence.Limits(Map.of(P4D, 2), Map.of(P4D, 0), Map.of(),
                    Map.of("team/ml.p4d.24xlarge", 2), Map.of());
            Map<String, FakeSageMaker.Peak> peaks = Map.of("ml.p4d.24xlarge",
                    new FakeSageMaker.Peak("ml.p4d.24xlarge", 2, T0, List.of()));
            return new Evidence(acknowledged, jobs, transitions, limits, creates, changes, peaks, takeovers);
        }
    }
}
