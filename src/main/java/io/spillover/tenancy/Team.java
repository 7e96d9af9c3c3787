package io.spillover.tenancy;

import io.spillover.placement.SharingStrategy;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.Instant;
import org.hibernate.annotations.DynamicUpdate;

/**
 * A tenant. Its usage counters are written only by {@link TeamUsage}'s guarded updates, never through
 * this entity, so an admin edit can never overwrite capacity booked at the same moment.
 */
@Entity
@Table(name = "teams")
@DynamicUpdate
class Team {

    @Id
    private String name;
    private String displayName;
    private int weight;
    @Enumerated(EnumType.STRING)
    private Queueing queueing;
    @Enumerated(EnumType.STRING)
    private SharingStrategy sharing;
    private Integer borrowLimitPercent;
    private boolean borrowLimitsPerType;
    private Integer maxAccelerators;
    private Integer maxConcurrentJobs;
    @Column(insertable = false, updatable = false)
    private int acceleratorsInUse;
    @Column(insertable = false, updatable = false)
    private int jobsInUse;
    private Instant createdAt;
    private Instant updatedAt;
    @Version
    private long version;

    protected Team() {
    }

    Team(String name, Instant now) {
        this.name = name;
        this.sharing = SharingStrategy.LEND;
        this.createdAt = now;
        this.updatedAt = now;
    }

    void describe(String displayName, int weight, Queueing queueing, Instant now) {
        this.displayName = displayName;
        this.weight = weight;
        this.queueing = queueing;
        this.updatedAt = now;
    }

    void share(SharingStrategy sharing, Integer borrowLimitPercent, boolean borrowLimitsPerType, Instant now) {
        this.sharing = sharing;
        this.borrowLimitPercent = borrowLimitPercent;
        this.borrowLimitsPerType = borrowLimitsPerType;
        this.updatedAt = now;
    }

    void cap(Integer maxAccelerators, Integer maxConcurrentJobs, Instant now) {
        this.maxAccelerators = maxAccelerators;
        this.maxConcurrentJobs = maxConcurrentJobs;
        this.updatedAt = now;
    }

    String name() {
        return name;
    }

    String displayName() {
        return displayName;
    }

    int weight() {
        return weight;
    }

    Queueing queueing() {
        return queueing;
    }

    SharingStrategy sharing() {
        return sharing;
    }

    Integer borrowLimitPercent() {
        return borrowLimitPercent;
    }

    Integer maxAccelerators() {
        return maxAccelerators;
    }

    Integer maxConcurrentJobs() {
        return maxConcurrentJobs;
    }

    int acceleratorsInUse() {
        return acceleratorsInUse;
    }

    int jobsInUse() {
        return jobsInUse;
    }
}
