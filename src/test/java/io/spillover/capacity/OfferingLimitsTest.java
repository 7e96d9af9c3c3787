package io.spillover.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.catalog.JobKind;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.PreferenceEntry;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What makes an entry never runnable under an account's limits, and what only makes it wait. */
class OfferingLimitsTest {

    private static final String P5 = "ml.p5.48xlarge";
    private static final OfferingLimits LIMITS = new OfferingLimits(List.of(
            quota(P5, 2, null, 2, 2, null),
            quota("ml.trn1.32xlarge", 0, null, 0, 0, null),
            quota("ml.m5.xlarge", null, 4, 0, 4, Instant.parse("2030-01-01T00:00:00Z")),
            declared("ml.g6e.48xlarge", 3)), Set.of("us-east-1"));

    @Test
    void aCountWithinTheQuotaWaitsWhileOthersHoldTheInstancesOrTheOfferingIsMarked() {
        assertThat(never(JobKind.TRAINING, P5, 2, "us-east-1")).isEmpty();
        assertThat(never(JobKind.PROCESSING, "ml.m5.xlarge", 4, "us-east-1")).isEmpty();
    }

    @Test
    void aCountAboveTheKindsQuotaNeverRuns() {
        assertThat(never(JobKind.TRAINING, P5, 3, "us-east-1")).contains("the account's applied service quota"
                + " 'ml.p5.48xlarge for training job usage' in us-east-1 is 2 instances, not 3");
        assertThat(never(JobKind.TRAINING, "ml.m5.xlarge", 1, "us-east-1")).contains("the account's service"
                + " quotas in us-east-1 list no 'ml.m5.xlarge for training job usage'");
    }

    @Test
    void aZeroQuotaNeverRuns() {
        assertThat(never(JobKind.TRAINING, "ml.trn1.32xlarge", 1, "us-east-1")).contains("the account's applied"
                + " service quota 'ml.trn1.32xlarge for training job usage' in us-east-1 is 0");
    }

    @Test
    void aTypeWithoutAnOfferingNeverRunsOnlyInARegionThatWasRead() {
        assertThat(never(JobKind.TRAINING, "ml.p4d.24xlarge", 1, "us-east-1")).contains("no offering of"
                + " ml.p4d.24xlarge in us-east-1: the account's service quotas there list no 'ml.p4d.24xlarge for"
                + " training job usage' and no fleet entry declares it");
        assertThat(never(JobKind.TRAINING, "ml.p4d.24xlarge", 1, "us-west-2")).isEmpty();
    }

    @Test
    void aDeclaredTotalBoundsTheCountForEitherKind() {
        assertThat(never(JobKind.TRAINING, "ml.g6e.48xlarge", 3, "us-east-1")).isEmpty();
        assertThat(never(JobKind.PROCESSING, "ml.g6e.48xlarge", 4, "us-east-1"))
                .contains("the fleet declares 3 instances of ml.g6e.48xlarge in us-east-1, not 4");
    }

    @Test
    void planEntriesAreLeftToThePlanChecks() {
        assertThat(LIMITS.neverRuns(JobKind.TRAINING, new PreferenceEntry(P5, 9, "us-east-1", "h100"))).isEmpty();
    }

    private static Optional<String> never(JobKind kind, String type, int count, String region) {
        return LIMITS.neverRuns(kind, new PreferenceEntry(type, count, region, null));
    }

    private static Offering quota(String type, Integer training, Integer processing, int total, int inUse,
                                  Instant markedUntil) {
        return new Offering(1, "sagemaker", OfferingKey.onDemand("us-east-1", type), total, inUse, markedUntil,
                markedUntil == null ? null : "an insufficient-capacity error", Offering.LimitSource.QUOTA, training,
                processing, 0);
    }

    private static Offering declared(String type, int total) {
        return new Offering(2, "sagemaker", OfferingKey.onDemand("us-east-1", type), total, 0, null, null,
                Offering.LimitSource.DECLARED, null, null, null);
    }
}
