package io.spillover.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Announcements of jobs' changes name every job, in as many notifications as PostgreSQL's payload needs (a cycle that
 * evaluated a batch of 500 names each of them, so every instance's estimator knows what moved); only past ten of
 * them do they say "every job".
 */
class JobAnnouncementsTest extends ApiTest {

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    TransactionTemplate transactions;

    @Test
    void fiveHundredJobsAreNamedInThreeNotificationsAndFiveThousandAsEveryJob() throws Exception {
        var five = ids(500);
        var many = ids(5_000);
        try (Connection listening = dataSource.getConnection()) {
            listening.setAutoCommit(true);
            listening.createStatement().execute("LISTEN " + JobStreams.CHANNEL);

            transactions.executeWithoutResult(status -> JobStreams.announce(jdbc, five));
            List<String> payloads = payloads(listening);
            transactions.executeWithoutResult(status -> JobStreams.announce(jdbc, many));
            List<String> everyJob = payloads(listening);

            listening.createStatement().execute("UNLISTEN *");
            assertThat(payloads).hasSize(3).allSatisfy(p -> assertThat(p.length())
                    .isLessThanOrEqualTo(JobStreams.MAX_PAYLOAD));
            var named = new HashSet<UUID>();
            payloads.forEach(p -> List.of(p.split(",")).forEach(id -> named.add(UUID.fromString(id))));
            assertThat(named).isEqualTo(Set.copyOf(five));
            assertThat(everyJob).containsExactly(JobStreams.EVERY_JOB);
        }
    }

    private static List<UUID> ids(int n) {
        var ids = new ArrayList<UUID>();
        for (int i = 0; i < n; i++) {
            ids.add(UUID.randomUUID());
        }
        return ids;
    }

    /** The notifications that arrived: the commit delivered them all at once. */
    private static List<String> payloads(Connection listening) throws Exception {
        var payloads = new ArrayList<String>();
        PGNotification[] arrived = listening.unwrap(PGConnection.class).getNotifications(5_000);
        for (PGNotification notification : arrived == null ? new PGNotification[0] : arrived) {
            payloads.add(notification.getParameter());
        }
        return payloads;
    }
}
