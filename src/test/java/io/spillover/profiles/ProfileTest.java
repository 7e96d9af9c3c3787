package io.spillover.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Named, versioned preference lists; a job keeps the version it used whatever happens to the profile. */
class ProfileTest extends ApiTest {

    static final String P5 = "ml.p5.48xlarge";
    static final String P4D = "ml.p4d.24xlarge";
    static final String G6E = "ml.g6e.48xlarge";

    @Test
    void aJobTakesTheProfilesListAndKeepsItWhenTheProfileChangesOrGoes() {
        capacity(P5, 0);
        capacity(P4D, 0);
        String team = team(Map.of(P5, 2, P4D, 4, G6E, 8));
        JsonNode saved = expect(api.put("/api/v1/teams/" + team + "/profiles/h100-first", Map.of(
                "description", "H100 first, A100 after",
                "instancePreferences", List.of(entry(P5, 2), entry(P4D, 4)),
                "maxPendingTimeInSeconds", 7200)), 201).json();
        assertThat(saved.get("version").asInt()).isEqualTo(1);

        JsonNode submitted = submit(team, Map.of("name", "from-profile", "kind", "TRAINING",
                "profile", "h100-first", "local", Map.of("runtimeSeconds", 3600)));
        expect(api.put("/api/v1/teams/" + team + "/profiles/h100-first", Map.of(
                "instancePreferences", List.of(entry(G6E, 8)))), 200);
        expect(api.delete("/api/v1/teams/" + team + "/profiles/h100-first"), 204);

        JsonNode job = describe(team, "from-profile");
        assertThat(job.get("profile").toString()).isEqualTo("{\"name\":\"h100-first\",\"version\":1}");
        assertThat(job.get("instancePreferences")).isEqualTo(submitted.get("instancePreferences"));
        assertThat(job.get("instancePreferences").size()).isEqualTo(2);
        assertThat(job.get("maxPendingTimeInSeconds").asLong()).isEqualTo(7200);
        assertThat(api.get("/api/v1/teams/" + team + "/profiles/h100-first").status()).isEqualTo(404);
    }

    @Test
    void everySaveIsANewVersion() {
        String team = team(Map.of(P4D, 4));
        var body = Map.of("instanceCount", 1, "instancePreferences", List.of(Map.of("instanceType", P4D)));
        expect(api.put("/api/v1/teams/" + team + "/profiles/a100", body), 201);
        expect(api.put("/api/v1/teams/" + team + "/profiles/a100", body), 200);

        JsonNode latest = expect(api.get("/api/v1/teams/" + team + "/profiles/a100"), 200).json();

        assertThat(latest.get("version").asInt()).isEqualTo(2);
        assertThat(latest.get("savedBy").asString()).startsWith("token:");
        assertThat(api.get("/api/v1/teams/" + team + "/profiles").json().size()).isEqualTo(1);
    }

    @Test
    void aJobNamesAProfileOrGivesAListNeverBoth() {
        String team = team(Map.of(P4D, 4));
        expect(api.put("/api/v1/teams/" + team + "/profiles/a100", Map.of("instanceCount", 1,
                "instancePreferences", List.of(Map.of("instanceType", P4D)))), 201);
        var both = job("both", entry(P4D, 1));
        both.put("profile", "a100");

        assertThat(expect(api.post("/api/v1/teams/" + team + "/jobs", both), 400).text()).contains("never both");
        assertThat(expect(api.post("/api/v1/teams/" + team + "/jobs", Map.of("kind", "TRAINING",
                "profile", "missing")), 400).text()).contains("has no profile missing");
    }

    @Test
    void aProfileIsCheckedWhenSavedAndAgainstTheQuotaWhenUsed() {
        String team = team(Map.of(P4D, 2));
        JsonNode refused = expect(api.put("/api/v1/teams/" + team + "/profiles/bad", Map.of(
                "instancePreferences", List.of(entry("ml.unknown", 1), entry(P4D, 1), entry(P4D, 2)))), 400).json();
        assertThat(refused.toString()).contains("instancePreferences[0].instanceType")
                .contains("instancePreferences[2].instanceType");
        expect(api.put("/api/v1/teams/" + team + "/profiles/big", Map.of(
                "instancePreferences", List.of(entry(P4D, 4)))), 201);

        JsonNode overQuota = expect(api.post("/api/v1/teams/" + team + "/jobs", Map.of("kind", "TRAINING",
                "profile", "big")), 400).json();

        assertThat(overQuota.toString()).contains("profile big v1: team quota for ml.p4d.24xlarge allows 2");
    }
}
