package io.spillover.placement;

import io.spillover.catalog.Catalog;
import io.spillover.catalog.InstanceType;
import io.spillover.catalog.JobKind;
import io.spillover.shared.Violation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The checks of SPEC §3.1 and §3.2 that a submission must pass before anything is stored. Every broken
 * rule is reported, each naming its field, so a user fixes a request in one go.
 */
public final class SubmissionRules {

    private static final String LIST = "instancePreferences";

    /** The range allowed for {@code maxPendingTimeInSeconds}, and the regions the provider serves. */
    public record Limits(long minPendingSeconds, long maxPendingSeconds, String defaultRegion, Set<String> regions) {

        public Limits {
            Objects.requireNonNull(defaultRegion, "defaultRegion");
            regions = Set.copyOf(regions);
            if (minPendingSeconds < 1 || maxPendingSeconds < minPendingSeconds) {
                throw new IllegalArgumentException("pending time range must be 1 <= min <= max");
            }
        }
    }

    /** Either a valid list or the violations that stop it; never both. */
    public record Result(PreferenceList preferences, List<Violation> violations) {

        public Result {
            violations = List.copyOf(violations);
        }

        public boolean accepted() {
            return violations.isEmpty();
        }
    }

    private final Catalog catalog;
    private final Limits limits;

    public SubmissionRules(Catalog catalog, Limits limits) {
        this.catalog = catalog;
        this.limits = limits;
    }

    public Limits limits() {
        return limits;
    }

    /**
     * @param team  the submitting team's quota and use
     * @param plans the training plans the team may use, by name
     */
    public Result check(Submission submission, TeamState team, Map<String, PlanState> plans) {
        return check(submission, team, plans, true);
    }

    /**
     * The same checks but the team's quota, which may change before the list is used: for saving a
     * profile, whose lists are checked against the quota again when a job uses them.
     */
    public Result checkWithoutQuota(Submission submission, TeamState team, Map<String, PlanState> plans) {
        return check(submission, team, plans, false);
    }

    private Result check(Submission submission, TeamState team, Map<String, PlanState> plans, boolean quota) {
        var violations = new ArrayList<Violation>(submission.requires().malformed("requires"));
        List<RequestedEntry> requested = submission.entries();
        if (requested == null || requested.isEmpty() || requested.size() > PreferenceList.MAX_ENTRIES) {
            violations.add(new Violation(LIST, "must list 1 to " + PreferenceList.MAX_ENTRIES + " instance types"
                    + (requested == null ? "" : ", not " + requested.size())));
            checkPendingTime(submission, List.of(), violations);
            return new Result(null, violations);
        }
        checkCountStyle(submission, violations);

        var entries = new ArrayList<PreferenceEntry>();
        var firstIndexOf = new HashMap<List<String>, Integer>();
        for (int i = 0; i < requested.size(); i++) {
            String field = LIST + "[" + i + "]";
            RequestedEntry raw = requested.get(i);
            if (raw == null) {
                violations.add(new Violation(field, "must not be null"));
                continue;
            }
            Optional<InstanceType> type = checkType(raw, submission.kind(), field, violations);
            String region = raw.region() == null ? limits.defaultRegion() : raw.region();
            if (!limits.regions().contains(region)) {
                violations.add(new Violation(field + ".region", "region " + region + " is not served; known: "
                        + String.join(", ", limits.regions().stream().sorted().toList())));
            }
            if (raw.instanceType() != null) {
                Integer earlier = firstIndexOf.putIfAbsent(List.of(raw.instanceType(), region), i);
                if (earlier != null) {
                    violations.add(new Violation(field + ".instanceType", raw.instanceType() + " in " + region
                            + " is already entry " + earlier + "; each type and region may appear once"));
                }
            }
            Integer count = raw.instanceCount() != null ? raw.instanceCount() : submission.instanceCount();
            String countField = raw.instanceCount() != null ? field + ".instanceCount" : "instanceCount";
            if (count != null && count < 1) {
                violations.add(new Violation(countField, "must be at least 1, not " + count));
                count = null;
            }
            checkPlan(raw, type, region, submission.kind(), team.team(), plans, field, violations);
            type.ifPresent(t -> submission.requires().unmetBy(t).forEach(reason -> violations.add(new Violation(
                    field + ".instanceType", t.name() + " " + reason + ", which the job requires"))));
            if (type.isPresent() && count != null) {
                if (quota) {
                    checkQuota(team, type.get(), count, countField, violations);
                }
                entries.add(new PreferenceEntry(type.get().name(), count, region, raw.trainingPlan()));
            }
        }
        checkPendingTime(submission, requested, violations);
        // distinct: a job-wide count is checked once per entry, and its violation is reported once
        return violations.isEmpty()
                ? new Result(new PreferenceList(entries), List.of())
                : new Result(null, violations.stream().distinct().toList());
    }

    /** Counts are given once beside the list or on every entry: not both, not neither, not some (§3.1.2). */
    private static void checkCountStyle(Submission submission, List<Violation> violations) {
        List<RequestedEntry> entries = submission.entries();
        long withCount = entries.stream().filter(e -> e != null && e.instanceCount() != null).count();
        boolean uniform = submission.instanceCount() != null;
        if (uniform && withCount > 0) {
            violations.add(new Violation("instanceCount",
                    "give the count once for the job or on every entry, not both"));
        } else if (!uniform && withCount == 0) {
            violations.add(new Violation("instanceCount",
                    "give instanceCount for the job or on every entry of instancePreferences"));
        } else if (!uniform && withCount < entries.size()) {
            for (int i = 0; i < entries.size(); i++) {
                if (entries.get(i) != null && entries.get(i).instanceCount() == null) {
                    violations.add(new Violation(LIST + "[" + i + "].instanceCount",
                            "must be set: the other entries give their own count"));
                }
            }
        }
    }

    private Optional<InstanceType> checkType(RequestedEntry raw, JobKind kind, String field, List<Violation> violations) {
        if (raw.instanceType() == null || raw.instanceType().isBlank()) {
            violations.add(new Violation(field + ".instanceType", "must name an instance type"));
            return Optional.empty();
        }
        Optional<InstanceType> type = catalog.find(raw.instanceType());
        if (type.isEmpty()) {
            violations.add(new Violation(field + ".instanceType", "unknown instance type " + raw.instanceType()));
        } else if (kind != null && !type.get().suits(kind)) {
            violations.add(new Violation(field + ".instanceType", raw.instanceType() + " is not available for "
                    + kind.name().toLowerCase() + " jobs"));
        }
        return type;
    }

    private static void checkPlan(RequestedEntry raw, Optional<InstanceType> type, String region, JobKind kind,
                                  String team, Map<String, PlanState> plans, String field,
                                  List<Violation> violations) {
        if (raw.trainingPlan() == null) {
            return;
        }
        String planField = field + ".trainingPlan";
        if (kind == JobKind.PROCESSING) {
            violations.add(new Violation(planField, "training plans serve training jobs only"));
            return;
        }
        PlanState plan = plans.get(raw.trainingPlan());
        if (plan == null || !plan.visibleTo(team)) { // another team's plan is as unknown as a missing one
            violations.add(new Violation(planField, "unknown training plan " + raw.trainingPlan()));
            return;
        }
        if (type.isPresent() && !plan.instanceType().equals(type.get().name())) {
            violations.add(new Violation(planField, "plan " + plan.name() + " reserves " + plan.instanceType()
                    + ", not " + type.get().name()));
        }
        if (!plan.region().equals(region)) {
            violations.add(new Violation(planField, "plan " + plan.name() + " is in " + plan.region()
                    + ", not " + region));
        }
    }

    /**
     * The team's ceiling must cover every entry, not only the first (SageMaker's service-quota rule): its guarantee,
     * plus what it may borrow when its strategy borrows (SPEC §8.1).
     */
    private static void checkQuota(TeamState team, InstanceType type, int count, String field,
                                   List<Violation> violations) {
        int limit = team.ceiling(type.name());
        if (limit == 0) {
            violations.add(Violation.ofLimit(field, "team " + team.team() + " has no quota for " + type.name()));
        } else if (count > limit) {
            violations.add(Violation.ofLimit(field, team.mayBorrow(type.name()) == 0
                    ? "team quota for " + type.name() + " allows " + limit + " instances, not " + count
                    : "team quota for " + type.name() + " allows " + team.guarantee(type.name()) + " instances and "
                    + team.mayBorrow(type.name()) + " more borrowed, not " + count));
        }
        int accelerators = count * type.acceleratorCount();
        if (team.maxAccelerators() != null && accelerators > team.maxAccelerators()) {
            violations.add(Violation.ofLimit(field, count + " x " + type.name() + " is " + accelerators
                    + " accelerators; the team's cap is " + team.maxAccelerators()));
        }
    }

    /** A maximum pending time is for accelerated types only, and lies in the configured range (§3.2.3). */
    private void checkPendingTime(Submission submission, List<RequestedEntry> entries, List<Violation> violations) {
        Long seconds = submission.maxPendingTimeInSeconds();
        if (seconds == null) {
            return;
        }
        String field = "maxPendingTimeInSeconds";
        if (seconds < limits.minPendingSeconds() || seconds > limits.maxPendingSeconds()) {
            violations.add(new Violation(field, "must be between " + limits.minPendingSeconds() + " and "
                    + limits.maxPendingSeconds() + ", not " + seconds));
        }
        for (RequestedEntry entry : entries) {
            Optional<InstanceType> type = entry == null ? Optional.empty() : catalog.find(entry.instanceType());
            if (type.isPresent() && !type.get().accelerated()) {
                violations.add(new Violation(field, "may be set only when every entry is an accelerated type; "
                        + type.get().name() + " is not"));
            }
        }
    }
}
