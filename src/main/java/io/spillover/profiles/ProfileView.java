package io.spillover.profiles;

import java.time.Instant;

/** One version of a profile. */
public record ProfileView(String team, String name, int version, ProfileDefinition definition, Instant savedAt,
                          String savedBy) {
}
