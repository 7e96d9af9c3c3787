package io.spillover.capacity;

import io.spillover.placement.OfferingKey;
import io.spillover.tenancy.CapacityRefusedException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
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
            "id, provider, region, instance_type, source, total, in_use, unavailable_until, unavailable_cause";

    private final JdbcClient jdbc;
    private final String provider;

    Offerings(JdbcClient jdbc, ProviderFleet provider) {
        this.jdbc = jdbc;
        this.provider = provider.name();
    }

    public List<Offering> all() {
        return jdbc.sql("SELECT " + COLUMNS + " FROM offerings WHERE provider = ? ORDER BY region, instance_type, source")
                .param(provider).query(Offerings::row).list();
    }

    public Optional<Offering> find(OfferingKey key) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM offerings WHERE provider = ? AND region = ? AND instance_type = ?"
                        + " AND source = ?")
                .params(provider, key.region(), key.instanceType(), key.source())
                .query(Offerings::row).optional();
    }

    public Optional<Offering> find(long id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM offerings WHERE id = ?").param(id).query(Offerings::row).optional();
    }

    /** Sets an offering's total, creating it when new; use above the new total drains as jobs end. */
    @Transactional
    public Offering setTotal(OfferingKey key, int total) {
        jdbc.sql("INSERT INTO offerings (provider, region, instance_type, source, total) VALUES (?, ?, ?, ?, ?)"
                        + " ON CONFLICT (provider, region, instance_type, source) DO UPDATE SET total = excluded.total")
                .params(provider, key.region(), key.instanceType(), key.source(), total).update();
        return find(key).orElseThrow();
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
                rs.getString("unavailable_cause"));
    }
}
