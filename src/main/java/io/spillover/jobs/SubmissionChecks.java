package io.spillover.jobs;

import io.spillover.capacity.CapacityService;
import io.spillover.capacity.OfferingLimits;
import io.spillover.catalog.Catalog;
import io.spillover.catalog.JobKind;
import io.spillover.placement.PlanState;
import io.spillover.placement.PreferenceEntry;
import io.spillover.placement.PreferenceList;
import io.spillover.placement.RequestedEntry;
import io.spillover.placement.Requirements;
import io.spillover.placement.Submission;
import io.spillover.placement.SubmissionRules;
import io.spillover.placement.TeamState;
import io.spillover.plans.PlanService;
import io.spillover.profiles.ProfileDefinition;
import io.spillover.profiles.ProfileService;
import io.spillover.profiles.ProfileView;
import io.spillover.providers.CapacityProvider;
import io.spillover.providers.JobSettings;
import io.spillover.providers.SageMakerSettings;
import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.Violation;
import io.spillover.system.Validation;
import io.spillover.tenancy.TeamService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * Every rule a job request must pass, at once: the body's own fields, then (with the profile's list when it
 * names one) the placement core's rules against the team's quota and the plans it may use, the provider's
 * settling of its settings (under SageMaker: a role the team may use, an output location), and, under a provider
 * that reads its account's limits, that no entry asks for what the account can never give.
 */
@Component
class SubmissionChecks {

    private final TeamService teams;
    private final Validation validation;
    private final ProfileService profiles;
    private final PlanService plans;
    private final SubmissionRules rules;
    private final JobLimits limits;
    private final CapacityProvider provider;
    private final CapacityService capacity;
    private final Catalog catalog;

    SubmissionChecks(TeamService teams, Validation validation, ProfileService profiles, PlanService plans,
                     SubmissionRules rules, JobLimits limits, CapacityProvider provider, CapacityService capacity,
                     Catalog catalog) {
        this.teams = teams;
        this.validation = validation;
        this.profiles = profiles;
        this.plans = plans;
        this.rules = rules;
        this.limits = limits;
        this.provider = provider;
        this.capacity = capacity;
        this.catalog = catalog;
    }

    /**
     * A request that passed every rule, with what its profile filled in and its provider settings as its launches
     * will use them.
     */
    record Checked(PreferenceList preferences, Integer instanceCount, Duration maxPending,
                   Requirements requires, Job.ProfileRef profile, Map<String, PlanState> plans,
                   Long fallbackAfterSeconds, SageMakerSettings sagemaker) {
    }

    /** The checked request; {@link InvalidRequestException} with every violation when it fails a rule. */
    Checked check(String team, JobRequest request) {
        return forTeam(team).check(request);
    }

    /**
     * The rules of one team, read once (its quota and headroom, its provider defaults; the plans it may use and its
     * profiles once a request names one), for a batch of requests checked against the same state.
     */
    ForTeam forTeam(String team) {
        return new ForTeam(team, teams.state(team), provider.jobSettings(team), capacity.limits());
    }

    final class ForTeam {

        private final String team;
        private final TeamState state;
        private Map<String, PlanState> visiblePlans; // read when a request first names a plan
        private final JobSettings jobSettings;
        private final Map<String, Optional<ProfileView>> profilesRead = new HashMap<>();
        private final Optional<OfferingLimits> accountLimits;

        private ForTeam(String team, TeamState state, JobSettings jobSettings, Optional<OfferingLimits> accountLimits) {
            this.team = team;
            this.state = state;
            this.jobSettings = jobSettings;
            this.accountLimits = accountLimits;
        }

        /** The checked request; {@link InvalidRequestException} with every violation when it fails a rule. */
        Checked check(JobRequest request) {
            List<Violation> violations = new ArrayList<>(validation.check(request));
            if (request == null) {
                throw new InvalidRequestException(violations);
            }
            List<RequestedEntry> entries = request.requestedEntries();
            Integer count = request.instanceCount();
            Long maxPending = request.maxPendingTimeInSeconds();
            Requirements requires = request.requires();
            Long patience = request.fallbackAfterSeconds();
            ProfileView profile = null;
            if (request.profile() != null) {
                if (request.instancePreferences() != null || request.instanceCount() != null) {
                    violations.add(new Violation("profile",
                            "give a profile or instancePreferences (with instanceCount), never both"));
                }
                profile = profilesRead.computeIfAbsent(request.profile(), name -> profiles.find(team, name))
                        .orElse(null);
                if (profile == null) {
                    violations.add(new Violation("profile", "team " + team + " has no profile " + request.profile()));
                    throw new InvalidRequestException(violations);
                }
                ProfileDefinition definition = profile.definition();
                if (definition.kind() != null && request.kind() != null && definition.kind() != request.kind()) {
                    violations.add(new Violation("kind", "profile " + profile.name() + " is for "
                            + definition.kind() + " jobs"));
                }
                entries = definition.instancePreferences();
                count = definition.instanceCount();
                maxPending = maxPending != null ? maxPending : definition.maxPendingTimeInSeconds();
                requires = requires != null ? requires : definition.requires();
                patience = patience != null ? patience : definition.fallbackAfterSeconds();
            }
            Map<String, PlanState> plans = plansNamedIn(entries);
            SubmissionRules.Result checked = rules.check(new Submission(request.kind(), entries, count, maxPending,
                    requires), state, plans);
            String from = profile == null ? "" : "profile " + profile.name() + " v" + profile.version() + ": ";
            checked.violations().forEach(v -> violations.add(v.saying(from)));
            JobSettings.Settled settled = request.kind() == null ? null
                    : jobSettings.settle(request.kind(), request.sagemaker());
            if (settled != null && violations.stream().noneMatch(v -> v.field().startsWith("sagemaker."))) {
                violations.addAll(settled.violations()); // only once the job's own values have the right shape
                if (Boolean.TRUE.equals(request.preemptible())) {
                    violations.addAll(provider.checkpointProblems(request.kind(), settled.sagemaker()));
                }
            }
            if (request.kind() != null && entries != null) {
                neverRuns(request.kind(), entries, count, from, violations);
            }
            if (!violations.isEmpty()) {
                throw new InvalidRequestException(violations);
            }
            return new Checked(checked.preferences(), count,
                    maxPending == null ? limits.defaultMaxPendingTime() : Duration.ofSeconds(maxPending), requires,
                    profile == null ? null : new Job.ProfileRef(profile.name(), profile.version()), plans,
                    patience, settled.sagemaker());
        }

        /**
         * The plans the team may use when an entry names a plan, else none: the rules and the pending clock look plans
         * up only by the names entries give, and most submissions name none, so they are spared a statement.
         */
        private Map<String, PlanState> plansNamedIn(List<RequestedEntry> entries) {
            if (entries == null || entries.stream().allMatch(e -> e == null || e.trainingPlan() == null)) {
                return Map.of();
            }
            if (visiblePlans == null) {
                visiblePlans = plans.statesVisibleTo(team);
            }
            return visiblePlans;
        }

        /**
         * An entry the account can never serve (no offering, a quota of 0, a count above the quota) is refused,
         * naming the entry, even when another entry could run: SageMaker checks every entry of its own lists
         * so, and a list that would only ever use its later entries says something its author did not mean.
         * Entries the rules above refuse for their type, region or count are left to those rules' words.
         */
        private void neverRuns(JobKind kind, List<RequestedEntry> entries, Integer jobCount, String from,
                               List<Violation> violations) {
            accountLimits.ifPresent(account -> {
                for (int i = 0; i < entries.size() && i < PreferenceList.MAX_ENTRIES; i++) {
                    RequestedEntry raw = entries.get(i);
                    if (raw == null || raw.trainingPlan() != null || raw.instanceType() == null
                            || !catalog.contains(raw.instanceType()) || !catalog.get(raw.instanceType()).suits(kind)) {
                        continue;
                    }
                    Integer count = raw.instanceCount() != null ? raw.instanceCount() : jobCount;
                    String region = raw.region() != null ? raw.region() : rules.limits().defaultRegion();
                    if (count == null || count < 1 || !rules.limits().regions().contains(region)) {
                        continue;
                    }
                    String field = "instancePreferences[" + i + "]";
                    account.neverRuns(kind, new PreferenceEntry(raw.instanceType(), count, region, null))
                            .ifPresent(why -> violations.add(Violation.ofLimit(field, from + why + "; it can never run")));
                }
            });
        }
    }
}
