package io.spillover.bench;

import io.spillover.system.Access;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The submissions' yardstick (SPEC §8.1): the least an endpoint of this stack does, in the service's own JVM, served
 * to the same clients. It takes the same request as a submission (a team's path, a bearer token checked by the same
 * filter and access rule, the same JSON body, read by the same Jackson settings into a record) and writes one row in
 * one transaction on the same database, then answers {@code 201} with a small JSON body. Only the benchmark has it:
 * it lives in {@code src/bench}, and only {@code spillover.bench.floor-endpoint=true}, which the benchmark sets when it
 * starts the service, registers it.
 */
@RestController
@RequestMapping("/api/v1/teams/{team}")
@ConditionalOnProperty(name = "spillover.bench.floor-endpoint", havingValue = "true")
class FloorEndpoint {

    /** The table it writes, made by the benchmark before it measures. */
    static final String TABLE = """
            CREATE TABLE IF NOT EXISTS bench_floor (id bigserial PRIMARY KEY, team text NOT NULL, name text NOT NULL,
                                                    at timestamptz NOT NULL DEFAULT now())""";

    /** A submission's body, as the benchmark sends it. */
    record Body(String name, String kind, List<Map<String, Object>> instancePreferences, Map<String, Object> local) {
    }

    record Written(long id, String team, String name) {
    }

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;

    FloorEndpoint(JdbcClient jdbc, TransactionTemplate transactions) {
        this.jdbc = jdbc;
        this.transactions = transactions;
    }

    @PostMapping("/floor")
    @Access(Access.Level.MEMBER)
    ResponseEntity<Written> write(@PathVariable String team, @RequestBody Body body) {
        long id = transactions.execute(status -> jdbc.sql("INSERT INTO bench_floor (team, name) VALUES (?, ?) RETURNING id")
                .params(team, body.name()).query(Long.class).single());
        return ResponseEntity.created(URI.create("/api/v1/teams/" + team + "/floor/" + id))
                .body(new Written(id, team, body.name()));
    }
}
