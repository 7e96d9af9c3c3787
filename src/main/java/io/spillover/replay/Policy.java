package io.spillover.replay;

import io.spillover.placement.QueuePolicy;

/** How the replayed jobs ask for capacity; each policy is replayed on the same fleet and the same jobs. */
public sealed interface Policy {

    /** A short name for reports and JSON. */
    String name();

    /** In words, for the report. */
    String describe();

    /** (a) Each job names only its first-choice type and waits in Spillover's queue for it. */
    record SingleType() implements Policy {
        @Override
        public String name() {
            return "single-type";
        }

        @Override
        public String describe() {
            return "each job names only its first choice; queued by QueuePass, re-evaluated when capacity frees";
        }
    }

    /** (b) Each job names up to five types in preference order; Spillover's queue places it on the first that fits. */
    record PreferenceLists() implements Policy {
        @Override
        public String name() {
            return "preference-list";
        }

        @Override
        public String describe() {
            return "each job names up to 5 types in preference order; queued by QueuePass, re-evaluated when"
                    + " capacity frees";
        }
    }

    /**
     * What the queue knows of a job's run when it ranks it: what the service knows, or more, to show what more
     * knowledge would be worth.
     */
    enum Knowledge {
        /** The service's estimate ({@code ExpectedRuns}): the job's sweep, else its profile's or team's median. */
        HISTORY,
        /** The service's estimate without sweeps: its profile's or team's median only, as the first queue policy had. */
        TYPICAL,
        /** As {@link #HISTORY}, each job also giving the maximum run time its user is modelled to set ({@link Fleet#maxRuntimeHint}). */
        HINTS,
        /** Each job's true run on its first choice: no service can know it; the bound of what ranking by run can give. */
        ORACLE
    }

    /**
     * Each job names its whole list and waits in Spillover's queue, served under a {@link QueuePolicy} of the
     * placement core: precedence, patience, fair share, shortest first and holds, each on or off, with expected
     * runs from the {@link Knowledge} given, and guarantees lent and borrowed as {@link Lending} says.
     */
    record Queued(String name, String describe, QueuePolicy queue, Knowledge knowledge, Lending lending)
            implements Policy {

        public Queued {
            java.util.Objects.requireNonNull(lending, "lending");
        }

        /** With guarantees as hard limits. */
        public Queued(String name, String describe, QueuePolicy queue, Knowledge knowledge) {
            this(name, describe, queue, knowledge, Lending.OFF);
        }

        Queued(String name, String describe, QueuePolicy queue) {
            this(name, describe, queue, Knowledge.HISTORY);
        }
    }

    /**
     * Another policy replayed with every team's quota lifted to the whole of each type: a free-for-all, so that
     * readers see how much of a gain is lifted caps and how much is the queue.
     */
    record Uncapped(String name, Policy policy) implements Policy {

        public Uncapped {
            if (policy instanceof Uncapped) {
                throw new IllegalArgumentException("a policy is uncapped once");
            }
        }

        public Uncapped(Policy policy) {
            this(policy.name() + "-no-quotas", policy);
        }

        @Override
        public String describe() {
            return policy.describe() + "; every team's quota lifted to the whole fleet (a free-for-all)";
        }
    }

    /**
     * (c) A client-side retry script around single-type submissions: it tries a type, waits
     * {@code intervalSeconds} after each refusal, and moves to the next type of its list after
     * {@code triesPerType} refusals, wrapping round to the first after the last. There is no server-side queue.
     */
    record Polling(long intervalSeconds, int triesPerType) implements Policy {

        public Polling {
            if (intervalSeconds < 1 || triesPerType < 1) {
                throw new IllegalArgumentException("polling needs an interval >= 1 s and >= 1 try per type");
            }
        }

        @Override
        public String name() {
            return "polling-" + intervalSeconds + "s-x" + triesPerType;
        }

        @Override
        public String describe() {
            return "single-type tries by a client script: retry every " + intervalSeconds + " s, next type after "
                    + triesPerType + " refusals, back to the first after the last; no server-side queue";
        }
    }
}
