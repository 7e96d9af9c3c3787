package io.spillover.security;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * A token as listed; {@code secret} only in the answer that created it, never again. A token that carries an
 * access key shows its {@code accessKeyId} always, its {@code secretAccessKey} only in that first answer.
 *
 * @param role {@code MEMBER}, {@code TEAM_ADMIN} or {@code PLATFORM_ADMIN}
 */
public record TokenView(String id, String team, String name, String role, Instant createdAt, String createdBy,
                        Instant expiresAt, Instant lastUsedAt, Instant revokedAt,
                        @JsonInclude(JsonInclude.Include.NON_NULL) String secret,
                        @JsonInclude(JsonInclude.Include.NON_NULL) String accessKeyId,
                        @JsonInclude(JsonInclude.Include.NON_NULL) String secretAccessKey) {
}
