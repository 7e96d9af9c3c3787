package io.spillover.security;

/** A person's or token's role in one team. */
public enum TeamRole {
    /** Submits, stops and reads the team's jobs; reads its profiles and plans. */
    MEMBER,
    /** Also keeps the team's profiles and tokens. */
    TEAM_ADMIN;

    boolean covers(TeamRole needed) {
        return this == TEAM_ADMIN || needed == MEMBER;
    }
}
