package io.spillover.tenancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillover.placement.BorrowLimit;
import io.spillover.placement.SharingStrategy;
import io.spillover.placement.TeamState;
import io.spillover.support.ApiTest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * A team's sharing, set by a platform admin with the team ({@code PUT /admin/teams/{team}}): a team lends and borrows
 * nothing until told, a change is audited, a wrong one is refused naming each field with nothing stored, and the
 * database lets a team hold beyond its guarantee only what it may borrow.
 */
class SharingSettingsTest extends ApiTest {

    static final String P4D = "ml.p4d.24xlarge";
    static final String G5 = "ml.g5.12xlarge";

    @Autowired
    JdbcClient jdbc;

    @Test
    void aTeamLendsItsIdleQuotaAndBorrowsNothingUntilAnAdminSaysSo() {
        String team = team(Map.of(P4D, 2));

        JsonNode sharing = describeTeam(team).get("sharing");

        assertThat(sharing.get("enabled").asBoolean()).isTrue();
        assertThat(sharing.get("strategy").asString()).isEqualTo("LEND");
        assertThat(sharing.get("borrowLimitPercent").isNull()).isTrue();
        assertThat(sharing.get("borrowLimits").isNull()).isTrue();
    }

    @Test
    void anAdminLetsATeamBorrowWithinLimitsAndTheChangeIsAudited() {
        String team = team(Map.of(P4D, 4));

        JsonNode saved = expect(api.put("/api/v1/admin/teams/" + team, definition("LEND_AND_BORROW", null,
                Map.of(G5, 2))), 200).json();

        assertThat(saved.at("/sharing/strategy").asString()).isEqualTo("LEND_AND_BORROW");
        assertThat(saved.at("/sharing/borrowLimitPercent").isNull()).isTrue();
        assertThat(saved.at("/sharing/borrowLimits").properties()).singleElement()
                .satisfies(limit -> assertThat(limit.getKey() + "=" + limit.getValue().asInt()).isEqualTo(G5 + "=2"));
        assertThat(describeTeam(team).at("/quotas/instanceLimits").propertyNames()).containsExactly(P4D);
        JsonNode audited = expect(api.get("/api/v1/admin/audit?size=1"), 200).json().get(0);
        assertThat(audited.get("action").asString()).isEqualTo("save team");
        assertThat(audited.get("target").asString()).isEqualTo("teams/" + team);
    }

    @Test
    void aDefinitionWithoutSharingPutsTheTeamBackToLendingOnly() {
        String team = team(Map.of(P4D, 4));
        expect(api.put("/api/v1/admin/teams/" + team, definition("LEND_AND_BORROW", null, Map.of(G5, 2))), 200);

        expect(api.put("/api/v1/admin/teams/" + team, Map.of("displayName", "Renamed")), 200);

        JsonNode sharing = describeTeam(team).get("sharing");
        assertThat(sharing.get("strategy").asString()).isEqualTo("LEND");
        assertThat(sharing.get("borrowLimits").isNull()).isTrue();
    }

    @Test
    void refusesBorrowLimitsOfATeamThatDoesNotBorrowAndOfUnknownTypesStoringNothing() {
        String team = team(Map.of(P4D, 4));

        JsonNode problem = expect(api.put("/api/v1/admin/teams/" + team, definition("RESERVE", 20_000,
                Map.of("ml.nonesuch.large", 1, G5, -1))), 400).json();

        assertThat(problem.get("errors").valueStream().map(v -> v.get("field").asString() + ": "
                + v.get("message").asString()))
                .contains("sharing.borrowLimitPercent: must be less than or equal to 10000",
                        "sharing.borrowLimits.ml.nonesuch.large: unknown instance type ml.nonesuch.large",
                        "sharing.borrowLimits: give a borrow limit in percent (borrowLimitPercent) or per type"
                                + " (borrowLimits), not both",
                        "sharing.strategy: borrow limits are for a team that borrows (LEND_AND_BORROW); a RESERVE"
                                + " team borrows nothing")
                .anyMatch(v -> v.startsWith("sharing.borrowLimits[" + G5 + "]"));
        assertThat(describeTeam(team).at("/sharing/strategy").asString()).isEqualTo("LEND");
    }

    @Test
    void theDatabaseLetsATeamHoldBeyondItsGuaranteeOnlyWhatItMayBorrow() {
        String team = team(Map.of(P4D, 4));
        assertThatThrownBy(() -> inUse(team, P4D, 5)).hasStackTraceContaining("overbooking refused");

        expect(api.put("/api/v1/admin/teams/" + team, definition("LEND_AND_BORROW", null, Map.of(P4D, 2, G5, 2))), 200);
        inUse(team, P4D, 6);
        assertThatThrownBy(() -> inUse(team, P4D, 7)).hasStackTraceContaining("overbooking refused");
        inUse(team, G5, 2);
        assertThatThrownBy(() -> inUse(team, G5, 3)).hasStackTraceContaining("overbooking refused");
        inUse(team, G5, 0);
        inUse(team, P4D, 0);

        expect(api.put("/api/v1/admin/teams/" + team, definition("LEND_AND_BORROW", 25, null)), 200);
        assertThatThrownBy(() -> inUse(team, P4D, 6)).hasStackTraceContaining("overbooking refused");
        inUse(team, P4D, 5);
        assertThatThrownBy(() -> inUse(team, G5, 1)).hasStackTraceContaining("overbooking refused");

        expect(api.put("/api/v1/admin/teams/" + team, definition("LEND_AND_BORROW", null, null)), 200);
        inUse(team, P4D, 400);
        inUse(team, G5, 400);
        inUse(team, P4D, 0);
        inUse(team, G5, 0);
    }

    @Test
    void theDatabaseCountsWhatATeamMayBorrowAsThePlacementCoreDoes() {
        String team = team(Map.of(P4D, 4));
        var limits = List.of(BorrowLimit.UNLIMITED, BorrowLimit.percent(75), BorrowLimit.percent(0),
                BorrowLimit.perType(Map.of(P4D, 1)), BorrowLimit.perType(Map.of(G5, 3)), BorrowLimit.perType(Map.of()));
        for (SharingStrategy strategy : SharingStrategy.values()) {
            for (BorrowLimit limit : limits) {
                jdbc.sql("UPDATE teams SET sharing = ?, borrow_limit_percent = ?, borrow_limits_per_type = ?"
                                + " WHERE name = ?")
                        .params(strategy.name(), limit.percent(), limit.instances() != null, team).update();
                for (int guarantee : new int[] {0, 1, 3, 4}) {
                    var state = new TeamState(team, Map.of(P4D, guarantee), Map.of(), null, 0, null, 0, false, strategy,
                            limit);
                    Integer typeLimit = limit.instances() == null ? null : limit.instances().get(P4D);
                    Integer database = jdbc.sql("SELECT team_borrowable(?, ?, ?)").params(team, guarantee, typeLimit)
                            .query(Integer.class).optional().orElse(null);
                    assertThat(database == null ? Integer.MAX_VALUE : database)
                            .as("%s, %s, a guarantee of %d", strategy, limit.describe(), guarantee)
                            .isEqualTo(state.mayBorrow(P4D));
                }
            }
        }
    }

    private void inUse(String team, String type, int count) {
        jdbc.sql("UPDATE team_quotas SET in_use = ? WHERE team = ? AND instance_type = ?").params(count, team, type)
                .update();
    }

    private JsonNode describeTeam(String team) {
        return expect(api.get("/api/v1/admin/teams/" + team), 200).json();
    }

    private static Map<String, Object> definition(String strategy, Integer percent, Map<String, Integer> limits) {
        var sharing = new LinkedHashMap<String, Object>();
        sharing.put("strategy", strategy);
        sharing.put("borrowLimitPercent", percent);
        sharing.put("borrowLimits", limits);
        return Map.of("displayName", "Sharing", "sharing", sharing);
    }
}
