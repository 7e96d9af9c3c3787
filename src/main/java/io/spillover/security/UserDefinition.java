package io.spillover.security;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * The body of {@code PUT /admin/users/{username}}. A null password keeps the current one (a new user
 * without one can sign in only through OpenID Connect). BCrypt reads at most 72 bytes of a password, so
 * longer ones are refused rather than cut.
 */
public record UserDefinition(@NotBlank @Size(max = 100) String displayName,
                             @Size(min = 12, max = 72, message = "must be 12 to 72 characters") String password,
                             Boolean platformAdmin, Boolean disabled) {

    @Override
    public String toString() {
        return "UserDefinition[displayName=" + displayName + ", password=" + (password == null ? "null" : "***")
                + ", platformAdmin=" + platformAdmin + ", disabled=" + disabled + "]";
    }
}
