package io.spillover.whatif;

import io.spillover.catalog.Catalog;
import io.spillover.catalog.JobKind;
import io.spillover.placement.OfferingKey;
import io.spillover.placement.PlanState;
import io.spillover.placement.PlanStatus;
import io.spillover.placement.QueuePolicy;
import io.spillover.replay.Fleet;
import io.spillover.replay.TeamRules;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.Violation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A change's edits, checked and applied in order to the baseline: each against the configuration as the edits
 * before it left it, so that an edit may name a plan an earlier one added. Every broken rule is reported at once,
 * named by its field ({@code edits[2].instanceType}); nothing is applied to anything live, only to the copy a run
 * replays on.
 */
final class Changes {

    static final int MAX_EDITS = 100;
    static final int MAX_INSTANCES = 100_000;
    static final int MAX_WEIGHT = 1_000;
    /** Longer than any setting of the queue makes sense for: SageMaker's 28 days of pending time, ten times over. */
    static final long MAX_SECONDS = 10 * 2_419_200L;
    static final Pattern PLAN_NAME = Pattern.compile("^[a-zA-Z0-9]([a-zA-Z0-9-]{0,62})$");

    private final Catalog catalog;
    private final Set<String> inputTeams;
    private final List<Violation> violations = new ArrayList<>();
    private final List<String> described = new ArrayList<>();

    /** The changed scenario, and each edit in words against what it changed: "plan h100 removed". */
    record Changed(Scenario scenario, List<String> described) {
    }

    /**
     * @param inputTeams the teams of the jobs replayed, which edits may name besides the platform's own (a trace's
     *                   teams need not be the platform's)
     */
    private Changes(Catalog catalog, Set<String> inputTeams) {
        this.catalog = catalog;
        this.inputTeams = Set.copyOf(inputTeams);
    }

    /**
     * The baseline with the edits applied.
     *
     * @throws InvalidRequestException naming every field of every edit that breaks a rule
     */
    static Changed apply(Scenario baseline, List<Edit> edits, Set<String> inputTeams, Catalog catalog) {
        var changes = new Changes(catalog, inputTeams);
        if (edits == null || edits.isEmpty()) {
            throw new InvalidRequestException("edits", "a change needs at least one edit");
        }
        if (edits.size() > MAX_EDITS) {
            throw new InvalidRequestException("edits", "a change has at most " + MAX_EDITS + " edits");
        }
        Scenario changed = baseline;
        for (int i = 0; i < edits.size(); i++) {
            changed = changes.apply(changed, edits.get(i), "edits[" + i + "]");
        }
        if (!changes.violations.isEmpty()) {
            throw new InvalidRequestException(changes.violations);
        }
        return new Changed(changed, List.copyOf(changes.described));
    }

    private Scenario apply(Scenario scenario, Edit edit, String field) {
        int before = violations.size();
        if (edit == null) {
            violations.add(new Violation(field, "must be an edit"));
            return scenario;
        }
        Scenario changed;
        if (edit instanceof Edit.OfferingCapacity e) {
            changed = capacity(scenario, e, field);
        } else if (edit instanceof Edit.AddPlan e) {
            changed = addPlan(scenario, e, field);
        } else if (edit instanceof Edit.RemovePlan e) {
            changed = removePlan(scenario, e, field);
        } else if (edit instanceof Edit.Team e) {
            changed = team(scenario, e, field);
        } else {
            changed = queue(scenario, (Edit.Queue) edit, field);
        }
        return violations.size() == before ? changed : scenario;
    }

    private Scenario capacity(Scenario scenario, Edit.OfferingCapacity edit, String field) {
        Fleet fleet = scenario.fleet();
        String source = edit.source() == null ? OfferingKey.ON_DEMAND : edit.source().strip();
        boolean named = required(edit.region(), field + ".region") & type(edit.instanceType(), field + ".instanceType");
        boolean counted = count(edit.instances(), 0, field + ".instances");
        if (!source.equals(OfferingKey.ON_DEMAND) && !(source.startsWith("plan:") && source.length() > 5)) {
            violations.add(new Violation(field + ".source", "must be on-demand or plan:<name>, not " + source));
            return scenario;
        }
        if (!named) {
            return scenario;
        }
        OfferingKey key = new OfferingKey(edit.region().strip(), edit.instanceType().strip(), source);
        if (!fleet.offerings().contains(key)) {
            violations.add(key.isPlan()
                    ? new Violation(field + ".source", "no plan " + key.planName() + " of " + key.instanceType() + " in "
                            + key.region() + " in the fleet")
                    : new Violation(field + ".instanceType", "no on-demand offering of " + key.instanceType() + " in "
                            + key.region() + " in the fleet"));
            return scenario;
        }
        if (!counted) {
            return scenario;
        }
        described.add(key.describe() + ": " + fleet.total(key) + " → " + edit.instances() + " instance(s)");
        return scenario.with(fleet.withTotal(key, edit.instances()));
    }

    private Scenario addPlan(Scenario scenario, Edit.AddPlan edit, String field) {
        Fleet fleet = scenario.fleet();
        boolean ok = true;
        if (edit.name() == null || !PLAN_NAME.matcher(edit.name()).matches()) {
            violations.add(new Violation(field + ".name", "must be 1 to 63 letters, digits or hyphens, starting"
                    + " with a letter or digit"));
            ok = false;
        } else if (fleet.plan(edit.name()).isPresent()) {
            violations.add(new Violation(field + ".name", "plan " + edit.name() + " exists already"));
            ok = false;
        }
        ok &= type(edit.instanceType(), field + ".instanceType");
        if (ok && !catalog.get(edit.instanceType().strip()).suits(JobKind.TRAINING)) {
            violations.add(new Violation(field + ".instanceType", edit.instanceType() + " does not run training jobs,"
                    + " and plans serve training jobs only"));
            ok = false;
        }
        String region = edit.region() == null || edit.region().isBlank() ? fleet.regions().stream().findFirst()
                .orElse(null) : edit.region().strip();
        if (region == null || !fleet.regions().contains(region)) {
            violations.add(new Violation(field + ".region", region == null ? "the fleet has no region"
                    : "the fleet has no offering in " + region + "; its regions: " + fleet.regions()));
            ok = false;
        }
        ok &= count(edit.instances(), 1, field + ".instances");
        if (edit.teams() == null || edit.teams().isEmpty()) {
            violations.add(new Violation(field + ".teams", "name at least one team the plan serves"));
            ok = false;
        } else {
            for (int i = 0; i < edit.teams().size(); i++) {
                ok &= knownTeam(fleet, edit.teams().get(i), field + ".teams[" + i + "]");
            }
        }
        if (!ok) {
            return scenario;
        }
        var plan = new PlanState(edit.name(), edit.instanceType().strip(), region, PlanStatus.ACTIVE, Instant.EPOCH,
                null, Set.copyOf(edit.teams().stream().map(String::strip).toList()));
        described.add("plan " + plan.name() + " added: " + edit.instances() + " × " + plan.instanceType() + " in "
                + region + ", for " + plan.teams().stream().sorted().toList());
        return scenario.withAdded(plan, edit.instances());
    }

    private Scenario removePlan(Scenario scenario, Edit.RemovePlan edit, String field) {
        if (edit.name() == null || scenario.fleet().plan(edit.name()).isEmpty()) {
            violations.add(new Violation(field + ".name", edit.name() == null ? "name the plan to remove"
                    : "no plan " + edit.name() + "; the plans: " + scenario.fleet().plans().stream()
                    .map(PlanState::name).toList()));
            return scenario;
        }
        described.add("plan " + edit.name() + " removed: " + scenario.fleet().total(scenario.fleet().plan(edit.name())
                .orElseThrow().offering()) + " instance(s) fewer");
        return scenario.withoutPlan(edit.name());
    }

    private Scenario team(Scenario scenario, Edit.Team edit, String field) {
        Fleet fleet = scenario.fleet();
        if (!knownTeam(fleet, edit.team(), field + ".team")) {
            return scenario;
        }
        String team = edit.team().strip();
        boolean ok = true;
        if (edit.weight() != null && (edit.weight() < 1 || edit.weight() > MAX_WEIGHT)) {
            violations.add(new Violation(field + ".weight", "must be from 1 to " + MAX_WEIGHT));
            ok = false;
        }
        ok &= edit.maxAccelerators() == null || count(edit.maxAccelerators(), 0, field + ".maxAccelerators");
        ok &= edit.maxConcurrentJobs() == null || count(edit.maxConcurrentJobs(), 0, field + ".maxConcurrentJobs");
        var limits = new TreeMap<String, Integer>();
        if (edit.instanceLimits() != null) {
            for (Map.Entry<String, Integer> limit : edit.instanceLimits().entrySet()) {
                String at = field + ".instanceLimits." + limit.getKey();
                boolean known = type(limit.getKey(), at);
                ok &= known && count(limit.getValue(), 0, at);
                if (known && limit.getValue() != null) {
                    limits.put(limit.getKey().strip(), limit.getValue());
                }
            }
        }
        if (edit.weight() == null && edit.instanceLimits() == null && edit.maxAccelerators() == null
                && edit.maxConcurrentJobs() == null) {
            violations.add(new Violation(field, "change the team's weight, instanceLimits, maxAccelerators or"
                    + " maxConcurrentJobs"));
            ok = false;
        }
        if (!ok) {
            return scenario;
        }
        TeamRules rules = fleet.rules(team);
        var words = new ArrayList<String>();
        if (edit.weight() != null) {
            words.add("weight " + rules.weight() + " → " + edit.weight());
            rules = rules.withWeight(edit.weight());
        }
        for (Map.Entry<String, Integer> limit : limits.entrySet()) {
            words.add("quota of " + limit.getKey() + " " + rules.limit(limit.getKey()) + " → " + limit.getValue());
            rules = rules.withLimit(limit.getKey(), limit.getValue());
        }
        if (edit.maxAccelerators() != null) {
            words.add("accelerator cap " + cap(rules.maxAccelerators()) + " → " + edit.maxAccelerators());
        }
        if (edit.maxConcurrentJobs() != null) {
            words.add("concurrent-job cap " + cap(rules.maxConcurrentJobs()) + " → " + edit.maxConcurrentJobs());
        }
        rules = rules.withCaps(edit.maxAccelerators() != null ? edit.maxAccelerators() : rules.maxAccelerators(),
                edit.maxConcurrentJobs() != null ? edit.maxConcurrentJobs() : rules.maxConcurrentJobs());
        described.add("team " + team + ": " + String.join(", ", words));
        return scenario.with(fleet.withTeam(team, rules));
    }

    private Scenario queue(Scenario scenario, Edit.Queue edit, String field) {
        QueuePolicy policy = scenario.policy();
        boolean ok = seconds(edit.fallbackAfterSeconds(), 0, field + ".fallbackAfterSeconds")
                & seconds(edit.shareDecaySeconds(), 1, field + ".shareDecaySeconds")
                & seconds(edit.holdAfterSeconds(), 0, field + ".holdAfterSeconds");
        if (Boolean.FALSE.equals(edit.holds()) && edit.holdAfterSeconds() != null) {
            violations.add(new Violation(field + ".holdAfterSeconds", "jobs hold nothing when holds is false"));
            ok = false;
        }
        Double lapse = edit.precedenceLapse();
        if (lapse != null && !QueuePolicy.isPrecedenceLapse(lapse)) {
            violations.add(new Violation(field + ".precedenceLapse", "must be 0 (precedence never lapses) or a"
                    + " response ratio of at least 1, not " + lapse));
            ok = false;
        }
        if (!ok) {
            return scenario;
        }
        if (Boolean.TRUE.equals(edit.firstFit())) {
            described.add("queue policy: first fit, as the queue was first built (no precedence, shortest-first,"
                    + " patience, fair share or holds)");
            return scenario.with(QueuePolicy.FIRST_FIT);
        }
        QueuePolicy before = policy;
        if (edit.precedence() != null) {
            policy = policy.withPrecedence(edit.precedence());
        }
        if (edit.fallbackAfterSeconds() != null) {
            policy = policy.withFallbackAfter(Duration.ofSeconds(edit.fallbackAfterSeconds()));
        }
        if (edit.fairShare() != null) {
            policy = policy.withFairShare(edit.fairShare());
        }
        if (edit.shareDecaySeconds() != null) {
            policy = policy.withShareHalfLife(Duration.ofSeconds(edit.shareDecaySeconds()));
        }
        if (edit.shortestFirst() != null) {
            policy = policy.withShortestFirst(edit.shortestFirst());
        }
        if (lapse != null) {
            policy = policy.withPrecedenceLapse(lapse);
        }
        if (edit.holdAfterRun() != null) {
            policy = policy.withHoldAfterRun(edit.holdAfterRun());
        }
        if (Boolean.FALSE.equals(edit.holds())) {
            policy = policy.withReserveAfter(null);
        } else if (edit.holdAfterSeconds() != null) {
            policy = policy.withReserveAfter(Duration.ofSeconds(edit.holdAfterSeconds()));
        } else if (Boolean.TRUE.equals(edit.holds()) && policy.reserveAfter() == null) {
            policy = policy.withReserveAfter(QueuePolicy.DEFAULT.reserveAfter());
        }
        described.add("queue policy: " + Settings.of(before).to(Settings.of(policy)));
        return scenario.with(policy);
    }

    private static String cap(Integer value) {
        return value == null ? "none" : value.toString();
    }

    /** A queue policy's settings, in the words docs/concepts.md uses for them. */
    record Settings(Map<String, String> words) {

        static Settings of(QueuePolicy policy) {
            var words = new java.util.LinkedHashMap<String, String>();
            words.put("precedence", policy.precedence() ? "on" : "off");
            words.put("precedence lapses", policy.precedenceLapse() == 0 ? "never"
                    : "at response ratio " + policy.precedenceLapse());
            words.put("patience", policy.fallbackAfter().toSeconds() + " s");
            words.put("fair share", policy.fairShare() ? "on" : "off");
            words.put("share half-life", policy.shareHalfLife().toSeconds() + " s");
            words.put("shortest expected run first", policy.shortestFirst() ? "on" : "off");
            words.put("holds", policy.reserveAfter() == null ? "off" : "after " + policy.reserveAfter().toSeconds()
                    + " s" + (policy.holdAfterRun() ? " and the expected run" : ""));
            return new Settings(words);
        }

        /** What differs, "fair share off → on"; "no setting changed" when nothing does. */
        String to(Settings after) {
            var changed = new ArrayList<String>();
            words.forEach((name, was) -> {
                String now = after.words.get(name);
                if (!was.equals(now)) {
                    changed.add(name + " " + was + " → " + now);
                }
            });
            return changed.isEmpty() ? "no setting changed" : String.join(", ", changed);
        }
    }

    private boolean required(String value, String field) {
        if (value == null || value.isBlank()) {
            violations.add(new Violation(field, "must be given"));
            return false;
        }
        return true;
    }

    private boolean type(String name, String field) {
        if (!required(name, field)) {
            return false;
        }
        if (!catalog.contains(name.strip())) {
            violations.add(new Violation(field, "unknown instance type " + name));
            return false;
        }
        return true;
    }

    private boolean count(Integer value, int least, String field) {
        if (value == null || value < least || value > MAX_INSTANCES) {
            violations.add(new Violation(field, "must be a whole number from " + least + " to " + MAX_INSTANCES));
            return false;
        }
        return true;
    }

    private boolean seconds(Long value, long least, String field) {
        if (value != null && (value < least || value > MAX_SECONDS)) {
            violations.add(new Violation(field, "must be from " + least + " to " + MAX_SECONDS + " seconds"));
            return false;
        }
        return true;
    }

    private boolean knownTeam(Fleet fleet, String team, String field) {
        if (!required(team, field)) {
            return false;
        }
        String name = team.strip();
        if (!fleet.teams().containsKey(name) && !inputTeams.contains(name)) {
            violations.add(new Violation(field, "unknown team " + name));
            return false;
        }
        return true;
    }
}
