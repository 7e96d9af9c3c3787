package io.spillover.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An OpenID Connect claim naming teams becomes team memberships. */
class OidcMembershipsTest {

    @Test
    void readsTeamsAndAdminRolesFromAListClaim() {
        assertThat(OidcMemberships.memberships(List.of("vision", "NLP:admin", "speech:team_admin", " ")))
                .isEqualTo(Map.of("vision", TeamRole.MEMBER, "nlp", TeamRole.TEAM_ADMIN, "speech", TeamRole.TEAM_ADMIN));
    }

    @Test
    void readsACommaSeparatedClaimAndKeepsTheHigherRole() {
        assertThat(OidcMemberships.memberships("vision, vision:admin"))
                .isEqualTo(Map.of("vision", TeamRole.TEAM_ADMIN));
    }

    @Test
    void aMissingClaimGivesNoMemberships() {
        assertThat(OidcMemberships.memberships(null)).isEmpty();
    }
}
