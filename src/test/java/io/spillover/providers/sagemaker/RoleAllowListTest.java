package io.spillover.providers.sagemaker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The platform's allow-list of execution roles: {@code {team}} is the team asking, {@code *} any run of characters. */
class RoleAllowListTest {

    private static final String ACCOUNT = "arn:aws:iam::111122223333:role/";
    private static final RoleAllowList TEAM_ROLES = new RoleAllowList(List.of(ACCOUNT + "spillover-{team}-*",
            ACCOUNT + "shared/*-readonly"));

    @Test
    void aTeamMayRunAsItsOwnRolesAndTheSharedOnes() {
        assertThat(TEAM_ROLES.allows("vision", ACCOUNT + "spillover-vision-train")).isTrue();
        assertThat(TEAM_ROLES.allows("vision", ACCOUNT + "shared/eval-readonly")).isTrue();
    }

    @Test
    void aTeamMayNotRunAsAnotherTeamsRole() {
        assertThat(TEAM_ROLES.allows("vision", ACCOUNT + "spillover-nlp-train")).isFalse();
        assertThat(TEAM_ROLES.allows("nlp", ACCOUNT + "spillover-vision-train")).isFalse();
        // A prefix of another team's name is not the team: "vis" is not "vision".
        assertThat(TEAM_ROLES.allows("vis", ACCOUNT + "spillover-vision-train")).isFalse();
    }

    @Test
    void onlyTheStarIsAWildcard() {
        var exact = new RoleAllowList(List.of(ACCOUNT + "team.{team}"));

        assertThat(exact.allows("a", ACCOUNT + "team.a")).isTrue();
        assertThat(exact.allows("a", ACCOUNT + "teamXa")).isFalse();
        assertThat(exact.allows("a", "arn:aws:iam::999999999999:role/team.a")).isFalse();
    }

    @Test
    void anEmptyListLetsEveryRolePass() {
        assertThat(new RoleAllowList(List.of()).allows("vision", ACCOUNT + "anything")).isTrue();
    }

    @Test
    void aRefusalShowsThePatternsAsTheyReadForTheTeam() {
        assertThat(TEAM_ROLES.refusal("vision", ACCOUNT + "spillover-nlp-train")).isEqualTo("role " + ACCOUNT
                + "spillover-nlp-train is not one team vision may run as (spillover.sagemaker.allowed-role-arns: "
                + ACCOUNT + "spillover-vision-*, " + ACCOUNT + "shared/*-readonly)");
    }
}
