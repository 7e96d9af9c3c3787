package io.spillover.security;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.time.Instant;

/**
 * The body of a token request: a name to recognise it by, the team role it carries, an optional expiry, and whether
 * it also carries an access key id and secret for SigV4-signed calls (the SageMaker-compatible endpoint; team tokens
 * only).
 */
public record TokenRequest(@NotBlank @Size(max = 100) String name, TeamRole role, Instant expiresAt,
                           Boolean accessKey) {

    public TokenRequest(String name, TeamRole role, Instant expiresAt) {
        this(name, role, expiresAt, null);
    }

    boolean wantsAccessKey() {
        return Boolean.TRUE.equals(accessKey);
    }
}
