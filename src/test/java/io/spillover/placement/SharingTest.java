package io.spillover.placement;

import static io.spillover.placement.Decision.Outcome.NOTHING_FITS;
import static io.spillover.placement.Decision.Outcome.SELECTED;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.catalog.JobKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Guarantees that are lent and borrowed (SPEC §8.1), decided whole: which entry borrows, why one may not, which
 * running placements a lender's job reclaims and in what words.
 */
class SharingTest {

    static final Instant NOW = PlacementTest.NOW;
    static final String EAST = "us-east-1";
    static final String P4D = PlacementTest.P4D;
    static final String G6E = PlacementTest.G6E;
    static final OfferingKey P4D_EAST = OfferingKey.onDemand(EAST, P4D);
    static final OfferingKey G6E_EAST = OfferingKey.onDemand(EAST, G6E);
    static final SharingPolicy SHARING = SharingPolicy.DEFAULT;
    static final String P4D_FREE_8 = "on-demand ml.p4d.24xlarge in us-east-1";

    private final Placement placement = new Placement(PlacementTest.CATALOG);

    // --- borrowing (Placement)

    @Test
    void aPreemptibleJobBorrowsIdleCapacityBeyondItsTeamsQuotaAndSaysItMayBeReclaimed() {
        Capacity capacity = fleet(8, 8).team(lender("vision", 2, 2)).capacity();

        Decision decision = placement.decide(preemptible("vision", p4d(2)), capacity, NOW, i -> null, SHARING);

        assertThat(decision).isEqualTo(new Decision(SELECTED, List.of(new EntryVerdict(0, P4D, 2, EAST, "on-demand",
                true, "selected: borrowing 2 ml.p4d.24xlarge beyond team vision's quota from idle capacity; may be"
                + " reclaimed")), true));
    }

    @Test
    void aJobWhoseMaximumRunIsWithinTheHorizonBorrowsUntilItEnds() {
        Capacity capacity = fleet(8, 8).team(lender("vision", 2, 2)).capacity();

        Decision decision = placement.decide(bounded("vision", Duration.ofHours(1), p4d(2)), capacity, NOW,
                i -> null, SHARING);

        assertThat(decision.borrowed()).isTrue();
        assertThat(decision.entries().get(0).reason()).isEqualTo("selected: borrowing 2 ml.p4d.24xlarge beyond team"
                + " vision's quota from idle capacity; returned within its maximum run time of 1 h");
    }

    @Test
    void aJobThatCouldRunForEverDoesNotBorrow() {
        Capacity capacity = fleet(8, 8).team(lender("vision", 2, 2)).capacity();

        Decision unbounded = placement.decide(bounded("vision", Duration.ofHours(5), p4d(2)), capacity, NOW,
                i -> null, SHARING);

        assertThat(unbounded).isEqualTo(new Decision(NOTHING_FITS, List.of(new EntryVerdict(0, P4D, 2, EAST,
                "on-demand", false, "team quota for ml.p4d.24xlarge: 2 of 2 in use, 2 needed; borrowing beyond it"
                + " needs a maximum run time of at most 4 h or a checkpoint to resume from"))));
    }

    @Test
    void aTeamThatDoesNotBorrowOrAPlatformWithSharingOffKeepsItsQuotaAsAHardLimit() {
        String hardLimit = "team quota for ml.p4d.24xlarge: 2 of 2 in use, 2 needed";
        Capacity lendOnly = fleet(8, 8).team(team("vision", 2, 2, SharingStrategy.LEND)).capacity();
        Capacity borrows = fleet(8, 8).team(lender("vision", 2, 2)).capacity();

        assertThat(placement.decide(preemptible("vision", p4d(2)), lendOnly, NOW, i -> null, SHARING))
                .isEqualTo(waiting(verdict(0, p4d(2), hardLimit)));
        assertThat(placement.decide(preemptible("vision", p4d(2)), borrows, NOW, i -> null, SharingPolicy.OFF))
                .isEqualTo(waiting(verdict(0, p4d(2), hardLimit)));
        assertThat(placement.decide(preemptible("vision", p4d(2)), borrows, NOW))
                .isEqualTo(waiting(verdict(0, p4d(2), hardLimit)));
    }

    @Test
    void borrowingStopsAtTheTeamsBorrowLimit() {
        TeamState halfMore = team("vision", 4, 5, SharingStrategy.LEND_AND_BORROW).withSharing(
                SharingStrategy.LEND_AND_BORROW, BorrowLimit.percent(50));
        Capacity capacity = fleet(8, 8).team(halfMore).capacity();

        assertThat(placement.decide(preemptible("vision", p4d(1)), capacity, NOW, i -> null, SHARING).borrowed())
                .isTrue();
        assertThat(placement.decide(preemptible("vision", p4d(2)), capacity, NOW, i -> null, SHARING))
                .isEqualTo(waiting(verdict(0, p4d(2), "team quota for ml.p4d.24xlarge: 5 of 4 in use, 2 needed; team"
                        + " vision may borrow at most 2 beyond it")));
    }

    @Test
    void borrowersLeaveFreeTheIdleQuotaOfTeamsThatReserveIt() {
        // 4 of 8 free; cv reserves 3 idle: vision may borrow 1, not 2
        Capacity capacity = fleet(8, 8).p4dInUse(4).team(lender("vision", 2, 4))
                .team(team("cv", 3, 0, SharingStrategy.RESERVE)).capacity();

        assertThat(placement.decide(preemptible("vision", p4d(1)), capacity, NOW, i -> null, SHARING).borrowed())
                .isTrue();
        assertThat(placement.decide(preemptible("vision", p4d(2)), capacity, NOW, i -> null, SHARING))
                .isEqualTo(waiting(verdict(0, p4d(2), "team quota for ml.p4d.24xlarge: 4 of 2 in use, 2 needed; of"
                        + " the 4 ml.p4d.24xlarge free, 3 are kept for teams that do not lend their idle quota")));
    }

    @Test
    void aListBorrowsItsEarlierEntryOrFitsALaterOneWithinTheQuotaAsThePolicySays() {
        // vision holds its whole p4d quota and none of its g6e quota
        TeamState vision = new TeamState("vision", Map.of(P4D, 2, G6E, 4), Map.of(P4D, 2), null, 0, null, 0, false,
                SharingStrategy.LEND_AND_BORROW, BorrowLimit.UNLIMITED);
        Capacity capacity = fleet(8, 8).team(vision).capacity();
        PlacementRequest request = preemptible("vision", p4d(2), g6e(2));

        Decision borrow = placement.decide(request, capacity, NOW, i -> null, SHARING);
        Decision tryNext = placement.decide(request, capacity, NOW, i -> null,
                SHARING.withWhenCanBorrow(SharingPolicy.WhenCanBorrow.TRY_NEXT_ENTRY));

        assertThat(borrow).isEqualTo(new Decision(SELECTED, List.of(
                verdict(0, p4d(2), true, "selected: borrowing 2 ml.p4d.24xlarge beyond team vision's quota from idle"
                        + " capacity; may be reclaimed"),
                verdict(1, g6e(2), true, "fits too; entry 0 comes first")), true));
        assertThat(tryNext).isEqualTo(new Decision(SELECTED, List.of(
                verdict(0, p4d(2), "could borrow 2 ml.p4d.24xlarge beyond team vision's quota, but entry 1 fits"
                        + " within it, and a list borrows only when no entry fits within the quota"),
                verdict(1, g6e(2), true, "selected")), false));
    }

    // --- the pass: within the guarantee first, then claims, then borrowing

    @Test
    void jobsWithinTheirQuotaGoBeforeBorrowersWhateverTheQueueOrder() {
        Capacity capacity = fleet(2, 0).team(lender("vision", 0, 0)).team(lender("nlp", 2, 0)).capacity();
        var borrower = queued("borrower", preemptible("vision", p4d(2)), -600);
        var owner = queued("owner", preemptible("nlp", p4d(2)), -60);

        var result = pass().decide(List.of(borrower, owner), capacity, Map.of(), NOW);

        assertThat(selections(result)).containsExactly("borrower:-", "owner:0");
    }

    @Test
    void aLendersJobReclaimsWhatABorrowerHoldsWithWordsOnBothSides() {
        // vision's guarantee is 2; it holds 4: its own 2, and 2 borrowed by a preemptible job 30 min ago
        Capacity capacity = fleet(4, 0).p4dInUse(4).team(lender("vision", 2, 4)).team(lender("nlp", 4, 0))
                .running(placed("own", "vision", 2, false, true, -7200))
                .running(placed("borrowed", "vision", 2, true, true, -1800))
                .capacity();
        var job = queued("train-7", preemptible("nlp", p4d(2)), -60);

        var result = pass().decide(List.of(job), capacity, Map.of(), NOW);

        assertThat(result.outcomes().get(0).decision()).isEqualTo(waiting(verdict(0, p4d(2), P4D_FREE_8
                + " is within team nlp's quota for ml.p4d.24xlarge (0 of 4 in use, 2 needed): reclaiming 2 from job"
                + " borrowed of team vision, which borrowed them")));
        assertThat(result.preemptions()).extracting(p -> p.victim().job(), QueuePass.Preemption::forJob,
                QueuePass.Preemption::reason).containsExactly(org.assertj.core.groups.Tuple.tuple("borrowed", "train-7",
                "preempted for job train-7 of team nlp, which needs 2 ml.p4d.24xlarge within its quota: this job"
                        + " borrowed 2 beyond team vision's quota"));
        assertThat(result.claims()).containsEntry("train-7", new QueuePass.Claim(0, P4D_EAST, 2, 0, 2, 0,
                List.of("borrowed")));
    }

    @Test
    void aReclaimDoesNotWaitForABorrowersMinimumRunWhenNothingElseCoversTheLendersNeed() {
        Capacity capacity = fleet(4, 0).p4dInUse(4).team(lender("vision", 2, 4)).team(lender("nlp", 4, 0))
                .running(placed("own", "vision", 2, false, false, -7200))
                .running(placed("young", "vision", 2, true, true, -240)) // 4 of its 10 min
                .capacity();
        var job = queued("train-7", preemptible("nlp", p4d(2)), -60);

        var result = pass().decide(List.of(job), capacity, Map.of(), NOW);

        assertThat(result.preemptions()).extracting(p -> p.victim().job()).containsExactly("young");
        assertThat(result.outcomes().get(0).revisitAt()).isNull();
        assertThat(result.claims()).containsEntry("train-7", new QueuePass.Claim(0, P4D_EAST, 2, 0, 2, 0,
                List.of("young")));
    }

    @Test
    void aReclaimStopsABorrowerPastItsMinimumRunBeforeOneWithinIt() {
        // the younger borrower would go first in Kueue's order (most recently started); the minimum run spares it
        Capacity capacity = fleet(4, 0).p4dInUse(4).team(lender("vision", 0, 4)).team(lender("nlp", 4, 0))
                .running(placed("young", "vision", 2, true, true, -240))
                .running(placed("older", "vision", 2, true, true, -1800))
                .capacity();
        var job = queued("train-7", preemptible("nlp", p4d(2)), -60);

        var result = pass().decide(List.of(job), capacity, Map.of(), NOW);

        assertThat(result.preemptions()).extracting(p -> p.victim().job()).containsExactly("older");
    }

    @Test
    void aReclaimPreemptsTheLowestPriorityThenTheMostRecentlyStartedAndOnlyWhatTheJobNeeds() {
        Capacity capacity = fleet(6, 0).p4dInUse(5).team(lender("vision", 0, 5)).team(lender("nlp", 4, 0))
                .running(placed("older", "vision", 2, true, true, -7200))
                .running(placed("newer", "vision", 2, true, true, -3600))
                .running(placed("important", "vision", 1, true, true, 5, -900))
                .capacity();
        var needsTwo = queued("needs-two", preemptible("nlp", p4d(2)), -60);
        var needsThree = queued("needs-three", preemptible("nlp", p4d(3)), -60);

        var two = pass().decide(List.of(needsTwo), capacity, Map.of(), NOW);
        var three = pass().decide(List.of(needsThree), fleet(6, 0).p4dInUse(5).team(lender("vision", 0, 5))
                .team(lender("nlp", 4, 0)).running(placed("older", "vision", 2, true, true, -7200))
                .running(placed("newer", "vision", 2, true, true, -3600))
                .running(placed("important", "vision", 1, true, true, 5, -900)).capacity(), Map.of(), NOW);

        // 1 free is held; 1 more is needed: "newer" (priority 0, started last) covers it alone
        assertThat(two.preemptions()).extracting(p -> p.victim().job()).containsExactly("newer");
        assertThat(two.claims().get("needs-two")).isEqualTo(new QueuePass.Claim(0, P4D_EAST, 2, 1, 2, 0,
                List.of("newer")));
        // 2 more needed: still "newer" alone, not "older" too
        assertThat(three.preemptions()).extracting(p -> p.victim().job()).containsExactly("newer");
    }

    @Test
    void instancesAlreadyComingBackAreNotReclaimedTwice() {
        Instant stopped = NOW.minusSeconds(30);
        Capacity capacity = fleet(4, 0).p4dInUse(4).team(lender("vision", 0, 4)).team(lender("nlp", 4, 0))
                .running(placed("stopping", "vision", 2, true, true, -3600).preempted(stopped))
                .running(placed("other", "vision", 2, true, true, -3600))
                .capacity();
        var job = queued("train-7", preemptible("nlp", p4d(2)), -60);

        var result = pass().decide(List.of(job), capacity, Map.of(), NOW);

        assertThat(result.preemptions()).isEmpty();
        assertThat(result.outcomes().get(0).decision().entries().get(0).reason()).endsWith(": 2 coming back from"
                + " job stopping of team vision, stopping since 09:59:30 UTC");
    }

    @Test
    void aBorrowerCannotTakeFreeInstancesALendersJobClaims() {
        // nlp needs 4: 2 are free, 2 come back from a borrower it preempts; cv would borrow the 2 free
        Capacity capacity = fleet(4, 0).p4dInUse(2).team(lender("vision", 0, 2)).team(lender("nlp", 4, 0))
                .team(lender("cv", 0, 0))
                .running(placed("young", "vision", 2, true, true, -60))
                .capacity();
        var lenderJob = queued("lender-job", preemptible("nlp", p4d(4)), -60);
        var borrowerJob = queued("borrower-job", preemptible("cv", p4d(2)), -3600);

        var result = pass().decide(List.of(borrowerJob, lenderJob), capacity, Map.of(), NOW);

        assertThat(selections(result)).containsExactly("borrower-job:-", "lender-job:-");
        assertThat(result.outcomes().get(0).decision().entries().get(0).reason()).isEqualTo(P4D_FREE_8 + " has 0 of"
                + " 4 instances free (2 held for job lender-job of team nlp, which is below its quota), 2 needed");
    }

    @Test
    void aTeamWithinItsQuotaIsNotReclaimedFromEvenIfItsJobsArePreemptible() {
        Capacity capacity = fleet(4, 0).p4dInUse(4).team(lender("vision", 4, 4)).team(lender("nlp", 4, 0))
                .running(placed("a", "vision", 2, false, true, -7200))
                .running(placed("b", "vision", 2, true, true, -3600)) // borrowed once; vision's other job ended since
                .capacity();
        var job = queued("train-7", preemptible("nlp", p4d(2)), -60);

        var result = pass().decide(List.of(job), capacity, Map.of(), NOW);

        assertThat(result.preemptions()).isEmpty();
        assertThat(result.claims()).isEmpty();
        assertThat(result.outcomes().get(0).decision().entries().get(0).reason())
                .isEqualTo(P4D_FREE_8 + " has 0 of 4 instances free, 2 needed");
    }

    @Test
    void whenTheReclaimedInstancesComeBackTheClaimingJobGetsThemBeforeALaterJobAndTheVictimCannotTakeThemBack() {
        // the borrower was stopped for train-7; its 2 p4d are free again, and it waits again at its place
        Capacity after = fleet(4, 0).p4dInUse(2).team(lender("vision", 2, 2)).team(lender("nlp", 4, 0))
                .team(lender("cv", 4, 0)).running(placed("own", "vision", 2, false, true, -7200)).capacity();
        var claimant = queued("train-7", preemptible("nlp", p4d(2)), -300);
        var victim = queued("borrowed", preemptible("vision", p4d(2)), -3600);
        var later = new QueuedRequest<>("later", preemptible("cv", p4d(2)), 5, NOW.minusSeconds(10), null,
                Duration.ofMinutes(1)); // higher priority, shorter: it would go first in the rounds
        var claims = Map.of("train-7", new QueuePass.Claim(0, P4D_EAST, 2, 0, 2, 0, List.of("borrowed")));

        var result = pass().decide(List.of(victim, claimant, later), after, Map.of(), NOW, claims);

        assertThat(selections(result)).containsExactly("later:-", "borrowed:-", "train-7:0");
    }

    @Test
    void instancesThatCameBackForOneClaimGoToItNotToAnEarlierJobWaitingForABorrowerToEnd() {
        // nlp's "early" waits for a bounded borrower to end; "late" preempted b2 for itself, and b2's 2 came back
        Capacity after = fleet(6, 0).p4dInUse(4).team(lender("vision", 0, 4)).team(lender("nlp", 4, 0))
                .running(new RunningPlacement("bounded", "vision", P4D_EAST, 2, 0, NOW.minusSeconds(600), true, false,
                        Duration.ofHours(1), 0, null))
                .running(placed("b3", "vision", 2, true, true, -3600))
                .capacity();
        var early = queued("early", preemptible("nlp", p4d(2)), -900);
        var late = queued("late", preemptible("nlp", p4d(2)), -300);
        var claims = new java.util.LinkedHashMap<String, QueuePass.Claim>();
        claims.put("early", new QueuePass.Claim(0, P4D_EAST, 2, 0, 0, 2, List.of()));
        claims.put("late", new QueuePass.Claim(0, P4D_EAST, 2, 0, 2, 0, List.of("b2")));

        var result = pass().decide(List.of(early, late), after, Map.of(), NOW, claims);

        assertThat(selections(result)).containsExactly("early:-", "late:0");
        assertThat(result.claims()).containsOnlyKeys("early");
    }

    @Test
    void eachClaimCountsFirstOnThePlacementsStoppedForItSoNoThirdBorrowerIsPreempted() {
        // b1 (2) is being stopped for "first", b2 (1) for "second"; b2 started last, so it would sort first
        Instant stopped = NOW.minusSeconds(30);
        Capacity capacity = fleet(5, 0).p4dInUse(5).team(lender("vision", 0, 5)).team(lender("nlp", 4, 0))
                .running(placed("b1", "vision", 2, true, true, -7200).preempted(stopped))
                .running(placed("b2", "vision", 1, true, true, -3600).preempted(stopped))
                .running(placed("b3", "vision", 2, true, true, -1800))
                .capacity();
        var first = queued("first", preemptible("nlp", p4d(2)), -120);
        var second = queued("second", preemptible("nlp", p4d(1)), -60);
        var claims = new java.util.LinkedHashMap<String, QueuePass.Claim>();
        claims.put("first", new QueuePass.Claim(0, P4D_EAST, 2, 0, 2, 0, List.of("b1")));
        claims.put("second", new QueuePass.Claim(0, P4D_EAST, 1, 0, 1, 0, List.of("b2")));

        var result = pass().decide(List.of(first, second), capacity, Map.of(), NOW, claims);

        assertThat(result.preemptions()).isEmpty();
        assertThat(result.claims()).containsEntry("first", new QueuePass.Claim(0, P4D_EAST, 2, 0, 2, 0,
                List.of("b1"))).containsEntry("second", new QueuePass.Claim(0, P4D_EAST, 1, 0, 1, 0, List.of("b2")));
    }

    @Test
    void aPlacementBeingStoppedCountsOnceNotAgainAsPartOfItsTeamsExcess() {
        // vision holds 3 on a guarantee of 2; its 1 beyond is the placement being stopped (for a job since started)
        Capacity capacity = fleet(3, 0).p4dInUse(3).team(lender("vision", 2, 3)).team(lender("nlp", 4, 0))
                .running(placed("stopping", "vision", 1, true, true, -3600).preempted(NOW.minusSeconds(30)))
                .running(placed("b", "vision", 1, true, true, -1800))
                .running(placed("c", "vision", 1, false, true, -1200))
                .capacity();
        var job = queued("needs-two", preemptible("nlp", p4d(2)), -60);

        var result = pass().decide(List.of(job), capacity, Map.of(), NOW);

        // 1 comes back; vision is then within its guarantee: nothing more is reclaimable, and no claim falls short
        assertThat(capacity.reclaimable(P4D_EAST)).isEqualTo(1);
        assertThat(result.claims()).isEmpty();
        assertThat(result.preemptions()).isEmpty();
    }

    @Test
    void aTeamClaimsNoMoreThanItsGuaranteeAndOnlyAStrictFifoTeamsHeadClaims() {
        // nlp's guarantee is 4: two jobs of 3 each fit it alone, not together
        Capacity capacity = fleet(6, 0).p4dInUse(6).team(lender("vision", 0, 6)).team(lender("nlp", 4, 0))
                .running(placed("b1", "vision", 3, true, true, -3600))
                .running(placed("b2", "vision", 3, true, true, -3000))
                .capacity();
        var first = queued("first", preemptible("nlp", p4d(3)), -120);
        var second = queued("second", preemptible("nlp", p4d(3)), -60);

        var result = pass().decide(List.of(first, second), capacity, Map.of(), NOW);

        assertThat(result.claims()).containsOnlyKeys("first");
        assertThat(result.preemptions()).extracting(p -> p.victim().job()).containsExactly("b2");

        TeamState strict = new TeamState("nlp", Map.of(P4D, 8), Map.of(), null, 0, null, 0, true,
                SharingStrategy.LEND, BorrowLimit.UNLIMITED);
        Capacity strictly = fleet(6, 0).p4dInUse(6).team(lender("vision", 0, 6)).team(strict)
                .running(placed("b1", "vision", 3, true, true, -3600))
                .running(placed("b2", "vision", 3, true, true, -3000))
                .capacity();
        var head = queued("head", preemptible("nlp", new PreferenceEntry(G6E, 1, EAST, null)), -120);
        var behind = queued("behind", preemptible("nlp", p4d(3)), -60);

        assertThat(pass().decide(List.of(head, behind), strictly, Map.of(), NOW).claims()).isEmpty();
    }

    @Test
    void aJobThatCanBorrowAnEarlierEntryBorrowsItRatherThanReclaimALaterOne() {
        // nlp holds its g6e guarantee and none of its p4d one; p4d is taken by a borrower, g6e has room
        TeamState nlp = new TeamState("nlp", Map.of(P4D, 4, G6E, 2), Map.of(G6E, 2), null, 0, null, 0, false,
                SharingStrategy.LEND_AND_BORROW, BorrowLimit.UNLIMITED);
        Capacity capacity = fleet(2, 8).p4dInUse(2).team(lender("vision", 0, 2)).team(nlp)
                .running(placed("borrower", "vision", 2, true, true, -3600)).capacity();
        var job = queued("train-7", preemptible("nlp", g6e(2), p4d(2)), -60);

        var result = pass().decide(List.of(job), capacity, Map.of(), NOW);

        assertThat(selections(result)).containsExactly("train-7:0");
        assertThat(result.outcomes().get(0).decision().borrowed()).isTrue();
        assertThat(result.preemptions()).isEmpty();
    }

    // --- shorter first within a team (in-team preemption, off by default)

    @Test
    void withShorterFirstAShortJobTakesWhatItsTeamsLongPreemptibleJobHoldsAndNoOtherTeamGivesAnything() {
        // vision holds its whole guarantee of 4: a long preemptible job and a non-preemptible one; nlp holds the rest
        Capacity capacity = fleet(6, 0).p4dInUse(6).team(lender("vision", 4, 4)).team(lender("nlp", 2, 2))
                .running(ofTeam("long", "vision", 2, true, 0, -7200, Duration.ofDays(1)))
                .running(ofTeam("pinned", "vision", 2, false, 0, -7200, Duration.ofDays(1)))
                .running(ofTeam("nlp-long", "nlp", 2, true, 0, -7200, Duration.ofDays(1)))
                .capacity();
        var eval = queued("eval", bounded("vision", Duration.ofHours(1), p4d(2)), -60);

        var off = pass().decide(List.of(eval), capacity, Map.of(), NOW);
        var on = shorterFirst().decide(List.of(eval), capacity, Map.of(), NOW);

        assertThat(off.preemptions()).isEmpty();
        assertThat(off.claims()).isEmpty();
        assertThat(on.preemptions()).extracting(p -> p.victim().job(), QueuePass.Preemption::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("long", "preempted for job eval of the same team,"
                        + " which may run at most 1 h: this job is preemptible and may run 22 h more (shorter first"
                        + " within a team: at least 4 times as long)"));
        assertThat(on.claims()).containsEntry("eval", new QueuePass.Claim(0, P4D_EAST, 2, 0, 2, 0, List.of("long"),
                true));
        assertThat(on.outcomes().get(0).decision()).isEqualTo(waiting(verdict(0, p4d(2), P4D_FREE_8 + " is held by"
                + " team vision's longer preemptible jobs, which give way to this job of at most 1 h (shorter first"
                + " within a team): preempting job long of this team, which may run 22 h more")));
    }

    @Test
    void noTeammateGivesWayThatRanksHigherIsWithinItsMinimumRunIsNotPreemptibleOrIsNotLongEnough() {
        Capacity capacity = fleet(8, 0).p4dInUse(8).team(lender("vision", 8, 8))
                .running(ofTeam("higher", "vision", 2, true, 1, -7200, Duration.ofDays(1)))
                .running(ofTeam("young", "vision", 2, true, 0, -300, Duration.ofDays(1)))
                .running(ofTeam("pinned", "vision", 2, false, 0, -7200, Duration.ofDays(1)))
                .running(ofTeam("ending", "vision", 2, true, 0, -7200, Duration.ofHours(5))) // 3 h left, under 4 x 1 h
                .capacity();
        var eval = queued("eval", bounded("vision", Duration.ofHours(1), p4d(2)), -60);
        var unbounded = queued("unbounded", preemptible("vision", p4d(2)), -60); // no maximum run: never shorter

        var result = shorterFirst().decide(List.of(eval, unbounded), capacity, Map.of(), NOW);

        assertThat(result.preemptions()).isEmpty();
        assertThat(result.claims()).isEmpty();
    }

    @Test
    void aLendersJobCountsOnlyOnWhatTeamsAboveTheirGuaranteeAreStoppingNotOnWhatATeamWithinItStops() {
        // ee's "gave-way" stopped for a teammate that has started since: ee is within its guarantee, so the 2 come
        // back to ee's own line (its older jobs take them first); nlp's job preempts the borrower instead
        Capacity capacity = fleet(6, 0).p4dInUse(6).team(lender("vision", 0, 2)).team(lender("nlp", 4, 0))
                .team(lender("ee", 4, 4))
                .running(ofTeam("gave-way", "ee", 2, true, 0, -7200, null).preempted(NOW.minusSeconds(30)))
                .running(ofTeam("ee-other", "ee", 2, false, 0, -7200, null))
                .running(placed("borrowed", "vision", 2, true, true, -1800))
                .capacity();
        var job = queued("train-7", preemptible("nlp", p4d(2)), -60);

        var result = pass().decide(List.of(job), capacity, Map.of(), NOW);

        assertThat(result.preemptions()).extracting(p -> p.victim().job()).containsExactly("borrowed");
        assertThat(result.claims()).containsEntry("train-7", new QueuePass.Claim(0, P4D_EAST, 2, 0, 2, 0,
                List.of("borrowed")));
    }

    @Test
    void aJobThatCouldNotBorrowIsNotShortEnoughForTeammatesToGiveWay() {
        // 5 h is beyond the 4 h borrow horizon and the job has no checkpoint: it would not get back what a teammate
        // borrowed meanwhile, so no teammate gives way to it, however long the teammate's run
        Capacity capacity = fleet(2, 0).p4dInUse(2).team(lender("vision", 2, 2))
                .running(ofTeam("week", "vision", 2, true, 0, -7200, Duration.ofDays(7)))
                .capacity();
        var beyondHorizon = queued("five-hours", bounded("vision", Duration.ofHours(5), p4d(2)), -60);
        var withinIt = queued("four-hours", bounded("vision", Duration.ofHours(4), p4d(2)), -60);

        assertThat(shorterFirst().decide(List.of(beyondHorizon), capacity, Map.of(), NOW).preemptions()).isEmpty();
        assertThat(shorterFirst().decide(List.of(withinIt), capacity, Map.of(), NOW).preemptions())
                .extracting(p -> p.victim().job()).containsExactly("week");
    }

    @Test
    void theTeammatesInstancesGoToTheShortJobWhenTheyComeBackNotToTheStoppedTeammateOrAnotherTeam() {
        // the pass before stopped "long" for eval: while it stops, eval keeps its claim; then eval starts
        Capacity stopping = fleet(4, 0).p4dInUse(4).team(lender("vision", 2, 2)).team(lender("nlp", 2, 2))
                .running(ofTeam("long", "vision", 2, true, 0, -7200, Duration.ofDays(1)).preempted(NOW.minusSeconds(30)))
                .running(ofTeam("nlp-job", "nlp", 2, false, 0, -7200, Duration.ofDays(1)))
                .capacity();
        Capacity back = fleet(4, 0).p4dInUse(2).team(lender("vision", 2, 0)).team(lender("nlp", 2, 2))
                .team(lender("cv", 0, 0)).running(ofTeam("nlp-job", "nlp", 2, false, 0, -7200, Duration.ofDays(1)))
                .capacity();
        var eval = queued("eval", bounded("vision", Duration.ofHours(1), p4d(2)), -120);
        var requeued = new QueuedRequest<>("long", preemptible("vision", p4d(2)), 0, NOW.minusSeconds(9000), null,
                Duration.ofHours(20));
        var other = new QueuedRequest<>("other", bounded("cv", Duration.ofMinutes(10), p4d(2)), 5, NOW.minusSeconds(5),
                null, Duration.ofMinutes(10)); // a higher-priority job of a team with idle capacity it may borrow
        var claims = Map.of("eval", new QueuePass.Claim(0, P4D_EAST, 2, 0, 2, 0, List.of("long"), true));

        var during = shorterFirst().decide(List.of(requeued, eval), stopping, Map.of(), NOW, claims);
        var after = shorterFirst().decide(List.of(requeued, eval, other), back, Map.of(), NOW, during.claims());

        assertThat(during.preemptions()).isEmpty();
        assertThat(during.claims()).containsEntry("eval", new QueuePass.Claim(0, P4D_EAST, 2, 0, 2, 0,
                List.of("long"), true));
        assertThat(selections(after)).containsExactly("other:-", "long:-", "eval:0");
        assertThat(after.preemptions()).isEmpty();
    }

    @Test
    void aJobThatGaveWayResumesBeforeItsShorterTeammatesAndNeverGivesWayAgain() {
        // eval runs on what "long" gave back; 2 more are free in vision's guarantee, and a shorter teammate that has
        // waited four times its expected run would go first by response ratio
        Supplier<Capacity> capacity = () -> fleet(4, 0).p4dInUse(2).team(lender("vision", 4, 2))
                .running(ofTeam("eval", "vision", 2, false, 0, -600, Duration.ofHours(1)))
                .capacity();
        var quick = new QueuedRequest<>("quick", bounded("vision", Duration.ofMinutes(20), p4d(2)), 0,
                NOW.minusSeconds(1800), null, Duration.ofMinutes(10));
        var requeued = new QueuedRequest<>("long", preemptible("vision", p4d(2)), 0, NOW.minusSeconds(9000), null,
                Duration.ofHours(20));
        var gaveWay = new QueuedRequest<>("long", preemptible("vision", p4d(2)), 0, NOW.minusSeconds(9000), null,
                Duration.ofHours(20), true);

        assertThat(selections(shorterFirst().decide(List.of(requeued, quick), capacity.get(), Map.of(), NOW)))
                .containsExactly("long:-", "quick:0");
        assertThat(selections(shorterFirst().decide(List.of(gaveWay, quick), capacity.get(), Map.of(), NOW)))
                .containsExactly("long:0", "quick:-");

        // running again, it was preempted once: a short teammate waits for it as for any job
        Capacity resumed = fleet(2, 0).p4dInUse(2).team(lender("vision", 2, 2))
                .running(new RunningPlacement("long", "vision", P4D_EAST, 2, 0, NOW.minusSeconds(7200), false, true,
                        Duration.ofDays(1), 1, null))
                .capacity();
        var eval = queued("eval-2", bounded("vision", Duration.ofHours(1), p4d(2)), -60);

        assertThat(shorterFirst().decide(List.of(eval), resumed, Map.of(), NOW).preemptions()).isEmpty();
    }

    @Test
    void aJobThatGaveWayGoesBeforeItsOwnTeamsJobsButNotBeforeAnotherTeams() {
        // 4 free p4d, each team within its guarantee: by response ratio vision's quick job (4) goes first, then nlp's
        // eval (3), then vision's long job (1.1) -- which gave way to a teammate before
        Capacity capacity = fleet(4, 0).team(lender("vision", 4, 0)).team(lender("nlp", 2, 0)).capacity();
        var gaveWay = new QueuedRequest<>("long", preemptible("vision", p4d(2)), 0, NOW.minusSeconds(9000), null,
                Duration.ofHours(20), true);
        var quick = new QueuedRequest<>("quick", bounded("vision", Duration.ofMinutes(20), p4d(2)), 0,
                NOW.minusSeconds(1800), null, Duration.ofMinutes(10));
        var eval = new QueuedRequest<>("eval", bounded("nlp", Duration.ofMinutes(20), p4d(2)), 0,
                NOW.minusSeconds(1200), null, Duration.ofMinutes(10));

        // the long job takes its team's first turn, quick's; nlp keeps its turn, and vision's quick job waits
        assertThat(selections(shorterFirst().decide(List.of(gaveWay, quick, eval), capacity, Map.of(), NOW)))
                .containsExactly("long:0", "quick:-", "eval:0");
        // alone with another team's job, it does not go first: that would be a precedence over every team
        Capacity two = fleet(2, 0).team(lender("vision", 4, 0)).team(lender("nlp", 2, 0)).capacity();
        assertThat(selections(shorterFirst().decide(List.of(gaveWay, eval), two, Map.of(), NOW)))
                .containsExactly("long:-", "eval:0");
    }

    @Test
    void aJobThatGaveWayDoesNotClaimBeforeAnotherTeamsJob() {
        // vision borrows 2 of the 4 p4d; nlp's long job (it gave way to a teammate) and research's short one are each
        // below their team's guarantee, and what vision borrowed covers one claim: the short job's, by rank
        Capacity capacity = fleet(4, 0).p4dInUse(4).team(lender("vision", 2, 4)).team(lender("nlp", 4, 0))
                .team(lender("research", 4, 0))
                .running(placed("own", "vision", 2, false, false, -7200))
                .running(placed("borrowed", "vision", 2, true, true, -1800))
                .capacity();
        var gaveWay = new QueuedRequest<>("long", preemptible("nlp", p4d(2)), 0, NOW.minusSeconds(9000), null,
                Duration.ofHours(20), true);
        var eval = new QueuedRequest<>("eval", bounded("research", Duration.ofMinutes(20), p4d(2)), 0,
                NOW.minusSeconds(1200), null, Duration.ofMinutes(10));

        var result = shorterFirst().decide(List.of(gaveWay, eval), capacity, Map.of(), NOW);

        assertThat(result.claims()).containsOnlyKeys("eval");
        assertThat(result.preemptions()).extracting(QueuePass.Preemption::forJob).containsExactly("eval");
    }

    // --- helpers

    private static QueuePass pass() {
        return new QueuePass(new Placement(PlacementTest.CATALOG), QueuePolicy.DEFAULT, SHARING);
    }

    private static QueuePass shorterFirst() {
        return new QueuePass(new Placement(PlacementTest.CATALOG), QueuePolicy.DEFAULT,
                SHARING.withShorterFirst(SharingPolicy.SHORTER_FIRST_RATIO));
    }

    static RunningPlacement ofTeam(String job, String team, int instances, boolean preemptible, int priority,
                                   long startedSecondsFromNow, Duration maxRuntime) {
        return new RunningPlacement(job, team, P4D_EAST, instances, priority, NOW.plusSeconds(startedSecondsFromNow),
                false, preemptible, maxRuntime, 0, null);
    }

    static List<String> selections(QueuePass.Result<String> result) {
        return result.outcomes().stream().map(o -> o.job().id() + ":"
                + o.decision().selected().map(v -> String.valueOf(v.index())).orElse("-")).toList();
    }

    static PreferenceEntry p4d(int count) {
        return new PreferenceEntry(P4D, count, EAST, null);
    }

    static PreferenceEntry g6e(int count) {
        return new PreferenceEntry(G6E, count, EAST, null);
    }

    static PlacementRequest preemptible(String team, PreferenceEntry... entries) {
        return new PlacementRequest(team, JobKind.TRAINING, new PreferenceList(List.of(entries)), null, true);
    }

    static PlacementRequest bounded(String team, Duration maxRuntime, PreferenceEntry... entries) {
        return new PlacementRequest(team, JobKind.TRAINING, new PreferenceList(List.of(entries)), maxRuntime, false);
    }

    static QueuedRequest<String> queued(String id, PlacementRequest request, long submittedSecondsFromNow) {
        return new QueuedRequest<>(id, request, 0, NOW.plusSeconds(submittedSecondsFromNow), null, Duration.ofHours(1));
    }

    static EntryVerdict verdict(int index, PreferenceEntry entry, String reason) {
        return verdict(index, entry, false, reason);
    }

    static EntryVerdict verdict(int index, PreferenceEntry entry, boolean fits, String reason) {
        return new EntryVerdict(index, entry.instanceType(), entry.instanceCount(), entry.region(), "on-demand", fits,
                reason);
    }

    static Decision waiting(EntryVerdict... verdicts) {
        return new Decision(NOTHING_FITS, List.of(verdicts));
    }

    /** A team that lends and borrows without limit, with a p4d guarantee and use. */
    static TeamState lender(String name, int p4dGuarantee, int p4dInUse) {
        return team(name, p4dGuarantee, p4dInUse, SharingStrategy.LEND_AND_BORROW);
    }

    static TeamState team(String name, int p4dGuarantee, int p4dInUse, SharingStrategy strategy) {
        return new TeamState(name, Map.of(P4D, p4dGuarantee, G6E, 0), Map.of(P4D, p4dInUse), null, 0, null, 0, false,
                strategy, BorrowLimit.UNLIMITED);
    }

    static RunningPlacement placed(String job, String team, int instances, boolean borrowed, boolean preemptible,
                                   long startedSecondsFromNow) {
        return placed(job, team, instances, borrowed, preemptible, 0, startedSecondsFromNow);
    }

    static RunningPlacement placed(String job, String team, int instances, boolean borrowed, boolean preemptible,
                                   int priority, long startedSecondsFromNow) {
        return new RunningPlacement(job, team, P4D_EAST, instances, priority, NOW.plusSeconds(startedSecondsFromNow),
                borrowed, preemptible, null, 0, null);
    }

    static FleetBuilder fleet(int p4d, int g6e) {
        return new FleetBuilder(p4d, g6e);
    }

    /** On-demand p4d and g6e in us-east-1, teams, and what runs there. */
    static final class FleetBuilder {
        private final int p4d;
        private final int g6e;
        private int p4dInUse;
        private final List<TeamState> teams = new ArrayList<>();
        private final List<RunningPlacement> running = new ArrayList<>();

        FleetBuilder(int p4d, int g6e) {
            this.p4d = p4d;
            this.g6e = g6e;
        }

        FleetBuilder p4dInUse(int inUse) {
            this.p4dInUse = inUse;
            return this;
        }

        FleetBuilder team(TeamState team) {
            teams.add(team);
            return this;
        }

        FleetBuilder running(RunningPlacement placement) {
            running.add(placement);
            return this;
        }

        Capacity capacity() {
            return new Capacity(List.of(OfferingState.of(P4D_EAST, p4d, p4dInUse), OfferingState.of(G6E_EAST, g6e, 0)),
                    List.of(), teams, running);
        }
    }
}
