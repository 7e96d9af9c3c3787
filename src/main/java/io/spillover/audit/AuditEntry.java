package io.spillover.audit;

import java.time.Instant;

/**
 * One audited event.
 *
 * @param actor   who: a user name, {@code token:<id>}, or {@code anonymous}
 * @param action  what, e.g. {@code PUT /api/v1/admin/teams/vision/quotas} or {@code LOGIN_FAILED}
 * @param target  what it was done to
 * @param outcome the HTTP status or a word ({@code refused})
 * @param source  the client's address
 */
public record AuditEntry(Instant at, String actor, String action, String target, String outcome, String source) {
}
