package io.spillover.tenancy;

/**
 * Whether a team lends the part of its guarantee it leaves idle and borrows what other teams leave idle, as AWS
 * Batch's quota shares for SageMaker Training say it (Kueue's {@code lendingLimit} and {@code borrowingLimit}).
 */
public enum SharingStrategy {
    /** Neither lends nor borrows: its idle guarantee stays idle for it, and it never runs beyond it. */
    RESERVE,
    /** Lends its idle guarantee (taken back when its own jobs need it), never borrows. */
    LEND,
    /** Lends its idle guarantee and borrows others', within its borrow limits. */
    LEND_AND_BORROW
}
