package io.spillover.tenancy;

/** A team's quota or queueing changed: its pending jobs may fit now. Published after commit. */
public record QuotaChanged(String team) {
}
