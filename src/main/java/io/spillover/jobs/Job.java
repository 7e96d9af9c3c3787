package io.spillover.jobs;

import io.spillover.catalog.JobKind;
import io.spillover.placement.EntryVerdict;
import io.spillover.placement.ExpectedRuns;
import io.spillover.placement.PreferenceList;
import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OrderColumn;
import jakarta.persistence.PostLoad;
import jakarta.persistence.PostPersist;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import jakarta.persistence.Version;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.hibernate.annotations.ColumnTransformer;
import org.hibernate.annotations.DynamicUpdate;
import org.springframework.data.domain.Persistable;

/**
 * A job and its life. It guards its own transitions: each method refuses a change its status does not
 * allow, and answers the {@link Transition} to log.
 */
@Entity
@Table(name = "jobs")
@DynamicUpdate
class Job implements Persistable<UUID> {

    @Id
    private UUID id;
    private String team;
    private String name;
    @Enumerated(EnumType.STRING)
    private JobKind kind;
    @Enumerated(EnumType.STRING)
    private JobStatus status;
    @Enumerated(EnumType.STRING)
    private StatusReason statusReason;
    private String statusMessage;
    private Integer instanceCount;
    private long maxPendingSeconds;
    private Long maxRuntimeSeconds;
    private int priority;
    private String clientToken;
    @Convert(converter = JobSpecConverter.class)
    @Column(columnDefinition = "jsonb")
    @ColumnTransformer(write = "?::jsonb")
    private JobSpec spec;
    @ElementCollection(fetch = FetchType.EAGER)
    @CollectionTable(name = "job_entries", joinColumns = @JoinColumn(name = "job_id"))
    @OrderColumn(name = "idx")
    private List<JobEntry> entries = new ArrayList<>();
    private Integer selectedIndex;
    private String selectedType;
    private Integer selectedCount;
    private String selectedRegion;
    private String selectedSource;
    private Long offeringId;
    private boolean holdsCapacity;
    private int attempt;
    /** Attempts lost with what ran them, each placed again (V8). */
    private int lostAttempts;
    /** Whether it can be stopped and resumed from its checkpoint, and so may be preempted (V15). */
    private boolean preemptible;
    /** How often it was preempted, each time placed again as a new attempt (V15). */
    private int preemptions;
    /** How many instances of its current or last placement were beyond its team's guarantee when placed (V15). */
    private int borrowedInstances;
    /**
     * Whether its last preemption gave way to a shorter job of its own team (V18): it resumes before its team's other
     * jobs of its priority. Cleared when it is placed again.
     */
    private boolean gaveWay;
    /** Since when the current attempt is being stopped (V15); null unless it is STOPPING. */
    private Instant stoppingSince;
    private String providerJobName;
    private Instant createdAt;
    private Instant pendingDeadline;
    private Instant startedAt;
    private Instant runtimeDeadline;
    private Instant endedAt;
    private String profileName;
    private Integer profileVersion;
    /** What makes its team's jobs submitted close together one sweep with it ({@link ExpectedRuns#sweepKey}, V9). */
    private String sweepKey;
    @Version
    private long version;
    /** True from {@link #submit} until stored: saving a new job inserts it, with no look-up for one to merge. */
    @Transient
    private boolean fresh;
    @Transient
    private PreferenceList preferences;

    protected Job() {
    }

    @Override
    public UUID getId() {
        return id;
    }

    @Override
    public boolean isNew() {
        return fresh;
    }

    @PostPersist
    @PostLoad
    void stored() {
        fresh = false;
    }

    /** The transaction that stored the job rolled back: it is a new submission again, which may be stored anew. */
    void storeRolledBack() {
        fresh = true;
    }

    /**
     * A new pending job.
     *
     * @param clockStart when its pending clock starts: now, or later when it waits for scheduled plans only
     * @param profile    the profile name and version it copied its list from, or null
     */
    static Job submit(UUID id, String team, String name, JobKind kind, PreferenceList preferences,
                      Integer uniformCount, Duration maxPending, Instant clockStart, Long maxRuntimeSeconds,
                      int priority, String clientToken, JobSpec spec, ProfileRef profile, boolean preemptible,
                      Instant now) {
        Job job = new Job();
        job.fresh = true;
        job.id = id;
        job.team = team;
        job.name = name;
        job.kind = kind;
        job.status = JobStatus.PENDING;
        job.statusReason = StatusReason.SUBMITTED;
        job.statusMessage = "waiting for capacity";
        job.instanceCount = uniformCount;
        job.maxPendingSeconds = maxPending.toSeconds();
        job.maxRuntimeSeconds = maxRuntimeSeconds;
        job.priority = priority;
        job.clientToken = clientToken;
        job.spec = spec;
        job.preemptible = preemptible;
        job.createdAt = now;
        preferences.entries().forEach(entry -> job.entries.add(new JobEntry(entry, team, priority, now)));
        job.preferences = preferences;
        job.pendingDeadline = clockStart.plus(maxPending);
        if (profile != null) {
            job.profileName = profile.name();
            job.profileVersion = profile.version();
        }
        // the database finds the sweep as it writes the row (V9)
        job.sweepKey = ExpectedRuns.sweepKey(job.profileName, kind, preferences);
        return job;
    }

    /** The profile version a job copied its list from. */
    record ProfileRef(String name, int version) {
    }

    /** Moves the pending deadline when the plans it waits for move; only a pending job has one. */
    void restartPendingClock(Instant clockStart) {
        if (status == JobStatus.PENDING) {
            pendingDeadline = clockStart.plusSeconds(maxPendingSeconds);
        }
    }

    ProfileRef profile() {
        return profileName == null ? null : new ProfileRef(profileName, profileVersion);
    }

    Transition submitted() {
        return new Transition(id, team, createdAt, null, JobStatus.PENDING, StatusReason.SUBMITTED,
                "submitted with " + entries.size() + " acceptable instance type(s)", attempt);
    }

    /**
     * Takes the selected entry: a new attempt starts, holding capacity of {@code offeringId}, {@code borrowed} of its
     * instances beyond its team's guarantee.
     */
    Transition start(EntryVerdict selected, long offeringId, int borrowed, Instant now) {
        attempt++;
        Transition transition = move(JobStatus.STARTING, StatusReason.PLACED, "placed on entry " + selected.index()
                + ": " + selected.instanceCount() + " x " + selected.instanceType() + " in " + selected.region()
                + " (" + selected.source() + ")" + (borrowed == 0 ? "" : ", " + borrowed
                + " of them borrowed beyond the team's quota" + (preemptible ? "; may be preempted" : "")), now);
        borrowedInstances = borrowed;
        gaveWay = false;
        selectedIndex = selected.index();
        selectedType = selected.instanceType();
        selectedCount = selected.instanceCount();
        selectedRegion = selected.region();
        selectedSource = selected.source();
        this.offeringId = offeringId;
        holdsCapacity = true;
        providerJobName = providerJobName(id, attempt);
        startedAt = null;
        return transition;
    }

    Transition running(Instant now, String message) {
        Transition transition = move(JobStatus.RUNNING, StatusReason.LAUNCHED, message, now);
        startedAt = now;
        runtimeDeadline = maxRuntimeSeconds == null ? null : now.plusSeconds(maxRuntimeSeconds);
        return transition;
    }

    /** The provider refused this attempt for capacity: back to the queue without the selection. */
    Transition requeue(String message, Instant now) {
        Transition transition = move(JobStatus.PENDING, StatusReason.LAUNCH_REFUSED, message, now);
        clearSelection();
        return transition;
    }

    /**
     * The attempt was lost with what ran it: back to the queue without the selection, to be placed again as a
     * new attempt. The job waits anew, its pending clock started again as at submission.
     */
    Transition requeueLost(String message, Instant now) {
        Transition transition = move(JobStatus.PENDING, StatusReason.ATTEMPT_LOST, message, now);
        clearSelection();
        lostAttempts++;
        startedAt = null;
        runtimeDeadline = null;
        pendingDeadline = now.plusSeconds(maxPendingSeconds);
        return transition;
    }

    Transition stopping(StatusReason reason, String message, Instant now) {
        Transition transition = move(JobStatus.STOPPING, reason, message, now);
        stoppingSince = now;
        return transition;
    }

    /**
     * Stopped to give its instances back to their owner, or ({@code forTeammate}) to a shorter job of its own team:
     * when the stop is confirmed, it waits again.
     */
    Transition preempting(String message, boolean forTeammate, Instant now) {
        if (!preemptible) {
            throw new IllegalStateException("job " + name + " did not opt in to preemption");
        }
        Transition transition = move(JobStatus.STOPPING, StatusReason.PREEMPTED, message, now);
        stoppingSince = now;
        gaveWay = forTeammate;
        return transition;
    }

    /** Being stopped for a preemption, not by a user or a limit: to be placed again once stopped. */
    boolean beingPreempted() {
        return status == JobStatus.STOPPING && statusReason == StatusReason.PREEMPTED;
    }

    /**
     * A stop asked for while the job was being preempted takes over the preemption's: the job ends when stopped,
     * instead of waiting again. The status stays STOPPING; only its reason changes.
     */
    Transition stopInsteadOfRequeue(StatusReason reason, String message, Instant now) {
        if (!beingPreempted()) {
            throw new IllegalStateException("job " + name + " is not being preempted");
        }
        var transition = new Transition(id, team, now, status, status, reason, message, attempt);
        statusReason = reason;
        statusMessage = message;
        return transition;
    }

    /**
     * The preempted attempt stopped: back to the queue without the selection, at its queue position (its priority
     * and submission time are unchanged), to be placed again as a new attempt that resumes from its checkpoint. Its
     * pending clock starts again, as at submission.
     */
    Transition requeuePreempted(String message, Instant now) {
        if (!beingPreempted()) {
            throw new IllegalStateException("job " + name + " is not being preempted");
        }
        Transition transition = move(JobStatus.PENDING, StatusReason.PREEMPTED, message, now);
        clearSelection();
        preemptions++;
        stoppingSince = null;
        startedAt = null;
        runtimeDeadline = null;
        pendingDeadline = now.plusSeconds(maxPendingSeconds);
        return transition;
    }

    /** The job ended: on the provider, or before ever reaching it (a pending job stopped). */
    Transition end(JobStatus end, StatusReason reason, String message, Instant now) {
        if (!end.ended()) {
            throw new IllegalArgumentException(end + " is not an end");
        }
        // A stop asked for by a user or a limit keeps its reason when the provider confirms it.
        boolean keepReason = status == JobStatus.STOPPING && end == JobStatus.STOPPED;
        StatusReason finalReason = keepReason ? statusReason : reason;
        String finalMessage = keepReason ? statusMessage : message;
        Transition transition = move(end, finalReason, finalMessage, now);
        endedAt = now;
        return transition;
    }

    /** Lets go of the capacity this attempt held; answers false when it held none. */
    boolean releaseCapacity() {
        boolean held = holdsCapacity;
        holdsCapacity = false;
        offeringId = null;
        return held;
    }

    private void clearSelection() {
        releaseCapacity();
        selectedIndex = null;
        selectedType = null;
        selectedCount = null;
        selectedRegion = null;
        selectedSource = null;
        providerJobName = null;
    }

    private Transition move(JobStatus next, StatusReason reason, String message, Instant now) {
        if (!status.canBecome(next)) {
            throw new IllegalStateException("job " + name + " is " + status + " and cannot become " + next);
        }
        var transition = new Transition(id, team, now, status, next, reason, message, attempt);
        status = next;
        statusReason = reason;
        statusMessage = message;
        return transition;
    }

    /** SageMaker-valid (letters, digits, hyphens, at most 63) and the same for the same attempt. */
    static String providerJobName(UUID id, int attempt) {
        return "spl-" + id.toString().replace("-", "") + "-" + attempt;
    }

    /** Its list, as stored; made once (the entries never change after submission). */
    PreferenceList preferences() {
        if (preferences == null) {
            preferences = new PreferenceList(entries.stream().map(JobEntry::toPreference).toList());
        }
        return preferences;
    }

    UUID id() { return id; }
    String team() { return team; }
    String name() { return name; }
    JobKind kind() { return kind; }
    JobStatus status() { return status; }
    StatusReason statusReason() { return statusReason; }
    String statusMessage() { return statusMessage; }
    Integer instanceCount() { return instanceCount; }
    long maxPendingSeconds() { return maxPendingSeconds; }
    Long maxRuntimeSeconds() { return maxRuntimeSeconds; }
    int priority() { return priority; }
    String clientToken() { return clientToken; }
    JobSpec spec() { return spec; }
    Integer selectedIndex() { return selectedIndex; }
    String selectedType() { return selectedType; }
    Integer selectedCount() { return selectedCount; }
    String selectedRegion() { return selectedRegion; }
    String selectedSource() { return selectedSource; }
    Long offeringId() { return offeringId; }
    boolean holdsCapacity() { return holdsCapacity; }
    int attempt() { return attempt; }

    int lostAttempts() { return lostAttempts; }
    boolean preemptible() { return preemptible; }
    int preemptions() { return preemptions; }
    boolean gaveWay() { return gaveWay; }
    int borrowedInstances() { return borrowedInstances; }
    String providerJobName() { return providerJobName; }
    Instant createdAt() { return createdAt; }
    String sweepKey() { return sweepKey; }
    Instant pendingDeadline() { return pendingDeadline; }
    Instant startedAt() { return startedAt; }
    Instant endedAt() { return endedAt; }
}
