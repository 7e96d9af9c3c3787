/**
 * The placement core: preference lists, the checks at submission and the one-pass evaluation of a job
 * against a capacity snapshot. Pure Java: no Spring, no persistence, no clock, no I/O; time and capacity
 * come in as arguments and a {@link io.spillover.placement.Decision} with a reason per entry comes out.
 *
 * <p>Quotas are guarantees that can be lent (SPEC §8.1). A team's per-type limit is its guarantee
 * ({@link io.spillover.placement.TeamState}); with its {@link io.spillover.placement.SharingStrategy} and
 * {@link io.spillover.placement.BorrowLimit} it lends what it leaves idle and borrows what others leave idle. The rule,
 * decided by {@link io.spillover.placement.QueuePass} under a {@link io.spillover.placement.SharingPolicy}: a job may
 * run beyond its team's guarantee only on capacity that is free and not needed by a team below its own guarantee with
 * a job waiting for it, and only when the loan is bounded (a maximum run time within the borrow horizon, or a
 * checkpoint to resume from after a preemption). A job that fits within its team's guarantee gets back what
 * borrowers hold within that bound: the pass holds free instances for it, and names the borrowers' placements to
 * preempt ({@link io.spillover.placement.QueuePass.Result#preemptions}), which the caller stops and requeues.
 */
package io.spillover.placement;
