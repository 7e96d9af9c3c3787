package io.spillover.placement;

/**
 * Whether a team lends what it leaves idle of its guarantee, and whether its jobs may borrow what other teams
 * leave idle (AWS Batch's quota-share strategies for SageMaker Training, by the same names).
 */
public enum SharingStrategy {

    /** Its idle guarantee stays free for it: borrowers may not take it; its jobs do not borrow. */
    RESERVE,
    /** Its idle guarantee may be borrowed, and is reclaimed when its jobs need it; its jobs do not borrow. */
    LEND,
    /** Lends as {@link #LEND} does, and its jobs may borrow within the team's {@link BorrowLimit}. */
    LEND_AND_BORROW;

    public boolean lends() {
        return this != RESERVE;
    }

    public boolean borrows() {
        return this == LEND_AND_BORROW;
    }
}
