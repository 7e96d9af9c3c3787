package io.spillover.shared;

/** A broken rule, named by the request field it concerns ({@code instancePreferences[1].instanceCount}). */
public record Violation(String field, String message) {
}
