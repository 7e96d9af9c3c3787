package io.spillover.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillover.placement.Capacity;
import io.spillover.placement.OfferingState;
import io.spillover.placement.RunningPlacement;
import io.spillover.support.ApiTest;
import java.sql.Connection;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The snapshot a scheduling cycle reads with the placements holding instances is one moment: what commits while it
 * reads is not in it. Its level is the transaction's own, set by its first statement, so it cannot join a transaction
 * that has read already.
 */
class CapacitySnapshotTest extends ApiTest {

    private static final String TYPE = "ml.t3.xlarge";
    private static final String OFFERING =
            "region = 'us-east-1' AND instance_type = '" + TYPE + "' AND source = 'on-demand'";

    @Autowired
    CapacityService capacity;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    DataSource dataSource;

    @Autowired
    PlatformTransactionManager transactions;

    @Test
    void theRunningPlacementsAreReadAtTheMomentTheOfferingsWere() throws Exception {
        capacity(TYPE, 3);
        int[] totalSeenWithThePlacements = new int[1];

        Capacity snapshot = capacity.snapshot(() -> {
            try (Connection other = dataSource.getConnection()) { // commits while the snapshot reads
                other.createStatement().executeUpdate("UPDATE offerings SET total = 5 WHERE " + OFFERING);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            totalSeenWithThePlacements[0] = jdbc.sql("SELECT total FROM offerings WHERE " + OFFERING)
                    .query(Integer.class).single();
            return List.<RunningPlacement>of();
        });

        assertThat(snapshot.offerings().stream().filter(o -> o.key().instanceType().equals(TYPE))
                .mapToInt(OfferingState::total).sum()).isEqualTo(3);
        assertThat(totalSeenWithThePlacements[0]).isEqualTo(3);
        assertThat(jdbc.sql("SELECT total FROM offerings WHERE " + OFFERING).query(Integer.class).single())
                .isEqualTo(5);
    }

    @Test
    void refusesToJoinATransactionThatHasReadAlready() {
        var transaction = new TransactionTemplate(transactions);

        assertThatThrownBy(() -> transaction.executeWithoutResult(status -> {
            jdbc.sql("SELECT 1").query(Integer.class).single();
            capacity.snapshot(List::of);
        })).hasStackTraceContaining("must be called before any query");
    }
}
