package io.spillover.providers.sagemaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillover.catalog.JobKind;
import io.spillover.providers.ProviderJobChanged;
import io.spillover.providers.ProviderJobStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataAccessResourceFailureException;

/**
 * A report the database could not take in is not lost: found by the long chaos run, where a job's end seen
 * during a PostgreSQL outage was marked as reported, so the watch never reported it again and the job stayed
 * RUNNING until the next safety sweep.
 */
class JobWatchTest {

    static final String NAME = "spl-0123456789abcdef0123456789abcdef-1";

    /** Stands in for the listener: its transaction fails once, as it does while PostgreSQL is down, then commits. */
    private final AtomicBoolean databaseDown = new AtomicBoolean(true);
    private final List<Object> takenIn = new ArrayList<>();
    private final ApplicationEventPublisher listener = event -> {
        if (databaseDown.getAndSet(false)) {
            throw new DataAccessResourceFailureException("the database cannot be reached");
        }
        takenIn.add(event);
    };
    private final JobWatch watch = new JobWatch(null, listener, Clock.systemUTC(), Duration.ofHours(1));

    @Test
    void anEndTheDatabaseCouldNotTakeInIsReportedAgainAtTheNextLook() {
        JobWatch.Followed job = watch.follow(NAME, JobKind.TRAINING, "us-east-1");
        var completed = new Observation(ProviderJobStatus.COMPLETED, "Completed/Completed",
                "SageMaker Completed/Completed: Training job completed", false, null,
                Instant.parse("2026-12-04T04:04:42Z"));

        assertThatThrownBy(() -> watch.observe(NAME, job, completed))
                .isInstanceOf(DataAccessResourceFailureException.class);
        assertThat(watch.get(NAME)).as("still followed after the failed report").isPresent();
        assertThat(job.last).as("not noted as seen, so the next poll's listing describes it again").isNull();

        watch.observe(NAME, job, completed);

        assertThat(takenIn).containsExactly(new ProviderJobChanged(NAME, ProviderJobStatus.COMPLETED,
                "SageMaker Completed/Completed: Training job completed"));
        assertThat(watch.get(NAME)).as("no longer followed once its end was taken in").isEmpty();
    }
}
