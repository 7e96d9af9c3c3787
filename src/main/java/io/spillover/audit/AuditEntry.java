package io.spillover.audit;

import java.time.Instant;

/**
 * One audited event.
 *
 * @param actor   who: a user name, {@code token:<id>}, or {@code anonymous}
 * @param action  what, e.g. {@code set quotas}, {@code LOGIN_FAILED}, or for a request the API refused
 *                before it reached a service, {@code PUT /api/v1/admin/teams/vision/quotas}
 * @param target  what it was done to, e.g. {@code teams/vision/quotas}
 * @param outcome for a change {@code done}, or why not: {@code refused}, {@code not found}, {@code invalid},
 *                {@code conflict}, {@code failed}; {@code 401} for a refused token
 * @param source  the client's address
 */
public record AuditEntry(Instant at, String actor, String action, String target, String outcome, String source) {

    public AuditEntry withOutcome(String outcome) {
        return new AuditEntry(at, actor, action, target, outcome, source);
    }
}
