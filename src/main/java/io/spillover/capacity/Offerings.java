package io.spillover.capacity;

import io.spillover.placement.OfferingKey;
import io.spillover.tenancy.CapacityRefusedException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The offerings of the active provider. Booking is a guarded update the database refuses past the total,
 * so an offering is never overbooked, whichever process books.
 */
@Repository
public class Offerings {

    private static final String COLUMNS =
            "id, o.provider, o.region, instance_type, source, total, in_use, unavailable_until, unavailable_cause,"
                    + " limit_source, training_quota, processing_quota, outside_use, f.reason AS quota_failure";
    /** Each offering with why its region's quotas could not be read, when they could not. */
    private static final String FROM = " FROM offerings o LEFT JOIN quota_failures f ON f.provider = o.provider"
            + " AND f.region = o.region AND o.limit_source = 'unknown'";

    private final JdbcClient jdbc;
    private final String provider;

    Offerings(JdbcClient jdbc, ProviderFleet provider) {
        this.jdbc = jdbc;
        this.provider = provider.name();
    }

    public List<Offering> all() {
        return jdbc.sql("SELECT " + COLUMNS + FROM + " WHERE o.provider = ? ORDER BY o.region, instance_type, source")
                .param(provider).query(Offerings::row).list();
    }

    public Optional<Offering> find(OfferingKey key) {
        return jdbc.sql("SELECT " + COLUMNS + FROM + " WHERE o.provider = ? AND o.region = ? AND instance_type = ?"
                        + " AND source = ?")
                .params(provider, key.region(), key.instanceType(), key.source())
                .query(Offerings::row).optional();
    }

    public Optional<Offering> find(long id) {
        return jdbc.sql("SELECT " + COLUMNS + FROM + " WHERE id = ?").param(id).query(Offerings::row).optional();
    }

    /** Sets an offering's total, creating it when new; use above the new total drains as jobs end. */
    @Transactional
    public Offering setTotal(OfferingKey key, int total) {
        jdbc.sql("INSERT INTO offerings (provider, region, instance_type, source, total) VALUES (?, ?, ?, ?, ?)"
                        + " ON CONFLICT (provider, region, instance_type, source) DO UPDATE SET total = excluded.total")
                .params(provider, key.region(), key.instanceType(), key.source(), total).update();
        return find(key).orElseThrow();
    }

    /** Sets a declared total (a fleet table entry, an admin): no quota reading changes it. */
    @Transactional
    public Offering declare(OfferingKey key, int total) {
        jdbc.sql("INSERT INTO offerings (provider, region, instance_type, source, total) VALUES (?, ?, ?, ?, ?)"
                        + " ON CONFLICT (provider, region, instance_type, source) DO UPDATE SET total = excluded.total,"
                        + " limit_source = 'declared', training_quota = NULL, processing_quota = NULL, outside_use = NULL")
                .params(provider, key.region(), key.instanceType(), key.source(), total).update();
        return find(key).orElseThrow();
    }

    /**
     * Sets an on-demand offering's total from the account's limit, creating it when new; a declared offering is
     * left as it is. Answers whether the offering follows the limit.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public boolean applyLimit(AccountLimit limit, Offering.LimitSource source) {
        return jdbc.sql("INSERT INTO offerings (provider, region, instance_type, source, total, limit_source,"
                        + " training_quota, processing_quota, outside_use) VALUES (?, ?, ?, 'on-demand', ?, ?, ?, ?, ?)"
                        + " ON CONFLICT (provider, region, instance_type, source) DO UPDATE SET total = excluded.total,"
                        + " limit_source = excluded.limit_source, training_quota = excluded.training_quota,"
                        + " processing_quota = excluded.processing_quota, outside_use = excluded.outside_use"
                        + " WHERE offerings.limit_source <> 'declared'")
                .params(provider, limit.region(), limit.instanceType(), limit.total(), source.value(),
                        limit.trainingQuota(), limit.processingQuota(), limit.outsideUse())
                .update() > 0;
    }

    /** A declared on-demand offering no longer declared: its total follows the account's limits from now on. */
    @Transactional
    public void undeclare(OfferingKey key) {
        jdbc.sql("UPDATE offerings SET limit_source = 'quota' WHERE provider = ? AND region = ? AND instance_type = ?"
                        + " AND source = 'on-demand' AND limit_source = 'declared'")
                .params(provider, key.region(), key.instanceType()).update();
    }

    /** Records that a region's quotas were read at {@code at}: whatever failed before is over. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void quotasRead(String region, Instant at) {
        jdbc.sql("INSERT INTO quota_readings (provider, region, read_at) VALUES (?, ?, ?)"
                        + " ON CONFLICT (provider, region) DO UPDATE SET read_at = excluded.read_at")
                .params(provider, region, Timestamp.from(at)).update();
        jdbc.sql("DELETE FROM quota_failures WHERE provider = ? AND region = ?").params(provider, region).update();
    }

    /**
     * Records why a region's quotas could not be read at {@code at}; a statement of its own, outside any transaction,
     * so that the failed refresh it belongs to stays recorded as failed.
     */
    public void quotasNotRead(String region, Instant at, String reason) {
        jdbc.sql("INSERT INTO quota_failures (provider, region, failed_at, reason) VALUES (?, ?, ?, ?)"
                        + " ON CONFLICT (provider, region) DO UPDATE SET failed_at = excluded.failed_at,"
                        + " reason = excluded.reason")
                .params(provider, region, Timestamp.from(at), reason).update();
    }

    /** By region, why its quotas could not be read at the last try. */
    public Map<String, String> quotaFailures() {
        var failures = new TreeMap<String, String>();
        jdbc.sql("SELECT region, reason FROM quota_failures WHERE provider = ?").param(provider)
                .query((rs, n) -> Map.entry(rs.getString(1), rs.getString(2))).list()
                .forEach(e -> failures.put(e.getKey(), e.getValue()));
        return failures;
    }

    /**
     * Makes the on-demand offering of a type whose limit is unknown, when there is none: it is tried until a reading
     * or the provider's refusal says what the limit is. Answers whether it made one.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public boolean tryUnknown(String region, String instanceType) {
        return jdbc.sql("INSERT INTO offerings (provider, region, instance_type, source, total, limit_source)"
                        + " VALUES (?, ?, ?, 'on-demand', ?, 'unknown') ON CONFLICT DO NOTHING")
                .params(provider, region, instanceType, Offering.UNKNOWN_TOTAL).update() > 0;
    }

    /** The regions whose quotas were ever read, with when they were last. */
    public Map<String, Instant> quotaReadings() {
        var readings = new TreeMap<String, Instant>();
        jdbc.sql("SELECT region, read_at FROM quota_readings WHERE provider = ?").param(provider)
                .query((rs, n) -> Map.entry(rs.getString(1), rs.getTimestamp(2).toInstant())).list()
                .forEach(e -> readings.put(e.getKey(), e.getValue()));
        return readings;
    }

    /** Books {@code count} instances; must join the caller's transaction, which rolls back on refusal. */
    @Transactional(propagation = Propagation.MANDATORY)
    public long book(OfferingKey key, int count) {
        try {
            return jdbc.sql("UPDATE offerings SET in_use = in_use + ? WHERE provider = ? AND region = ?"
                            + " AND instance_type = ? AND source = ? RETURNING id")
                    .params(count, provider, key.region(), key.instanceType(), key.source())
                    .query(Long.class).optional()
                    .orElseThrow(() -> new CapacityRefusedException("no offering " + key.describe(), null));
        } catch (DataIntegrityViolationException e) {
            throw new CapacityRefusedException(key.describe() + " has fewer than " + count + " instances free", e);
        }
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public void release(long offeringId, int count) {
        jdbc.sql("UPDATE offerings SET in_use = in_use - ? WHERE id = ?").params(count, offeringId).update();
    }

    /** Keeps the offering out of placement until {@code until}, after a provider refused a launch on it. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void markUnavailable(long offeringId, Instant until, String cause) {
        jdbc.sql("UPDATE offerings SET unavailable_until = ?, unavailable_cause = ? WHERE id = ?")
                .params(Timestamp.from(until), cause, offeringId).update();
    }

    /** Lifts the mark on one offering, if it has one; answers whether it had. */
    @Transactional
    public boolean liftMark(OfferingKey key) {
        return jdbc.sql("UPDATE offerings SET unavailable_until = NULL, unavailable_cause = NULL WHERE provider = ?"
                        + " AND region = ? AND instance_type = ? AND source = ? AND unavailable_until IS NOT NULL")
                .params(provider, key.region(), key.instanceType(), key.source()).update() > 0;
    }

    /** Lifts the marks that ran out by {@code now}, answering the offerings they were on. */
    @Transactional
    public List<OfferingKey> liftExpiredMarks(Instant now) {
        return jdbc.sql("UPDATE offerings SET unavailable_until = NULL, unavailable_cause = NULL"
                        + " WHERE provider = ? AND unavailable_until <= ? RETURNING region, instance_type, source")
                .params(provider, Timestamp.from(now))
                .query((rs, n) -> new OfferingKey(rs.getString(1), rs.getString(2), rs.getString(3)))
                .list();
    }

    /** When the next unavailable mark runs out, if any. */
    public Optional<Instant> nextMarkExpiry() {
        return jdbc.sql("SELECT min(unavailable_until) FROM offerings WHERE provider = ?")
                .param(provider).query(Timestamp.class).optional().map(Timestamp::toInstant);
    }

    private static Offering row(ResultSet rs, int n) throws SQLException {
        Timestamp until = rs.getTimestamp("unavailable_until");
        return new Offering(rs.getLong("id"), rs.getString("provider"),
                new OfferingKey(rs.getString("region"), rs.getString("instance_type"), rs.getString("source")),
                rs.getInt("total"), rs.getInt("in_use"), until == null ? null : until.toInstant(),
                rs.getString("unavailable_cause"), Offering.LimitSource.of(rs.getString("limit_source")),
                (Integer) rs.getObject("training_quota"), (Integer) rs.getObject("processing_quota"),
                (Integer) rs.getObject("outside_use"), rs.getString("quota_failure"));
    }
}
