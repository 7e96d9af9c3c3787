package io.spillover.providers;

import io.spillover.catalog.JobKind;
import io.spillover.shared.Violation;
import java.util.List;

/**
 * How the active provider settles a job's provider settings at submission ({@link CapacityProvider#jobSettings}):
 * what its launches will use, or why it could never launch. Settled once, so what was checked is what runs.
 */
@FunctionalInterface
public interface JobSettings {

    /** The job's settings as given: a provider that needs none of them. */
    JobSettings AS_GIVEN = (kind, own) -> new Settled(own, List.of());

    Settled settle(JobKind kind, SageMakerSettings own);

    /** @param violations each naming the job's field ({@code sagemaker.roleArn}); empty when it may run */
    record Settled(SageMakerSettings sagemaker, List<Violation> violations) {

        public Settled {
            violations = List.copyOf(violations);
        }
    }
}
