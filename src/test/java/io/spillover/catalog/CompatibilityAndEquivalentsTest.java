package io.spillover.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What a container needs, checked against the catalog at submission, and equivalent counts (SPEC §3.6).
 * The facts come from the catalog the service serves, not from numbers made up here.
 */
class CompatibilityAndEquivalentsTest extends ApiTest {

    @Test
    void aJobRequiringEfaIsRejectedNamingTheEntryWithoutIt() {
        JsonNode withEfa = type(t -> t.get("efa").asBoolean() && t.get("training").asBoolean()
                && t.get("acceleratorKind").asString().equals("GPU"));
        JsonNode withoutEfa = type(t -> !t.get("efa").asBoolean() && t.get("training").asBoolean()
                && t.get("acceleratorKind").asString().equals("GPU"));
        String team = team(Map.of(name(withEfa), 2, name(withoutEfa), 2));
        var body = job("needs-efa", entry(name(withEfa), 1), entry(name(withoutEfa), 1));
        body.put("requires", Map.of("efa", true));

        JsonNode problem = expect(api.post("/api/v1/teams/" + team + "/jobs", body), 400).json();

        assertThat(problem.get("errors").size()).isEqualTo(1);
        assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo("instancePreferences[1].instanceType");
        assertThat(problem.get("errors").get(0).get("message").asString())
                .isEqualTo(name(withoutEfa) + " has no EFA, which the job requires");
    }

    @Test
    void acceleratorMemoryModelsAndDriverAreCheckedPerEntry() {
        JsonNode big = type(t -> t.get("acceleratorMemoryGiB").asInt() >= 80 && t.get("training").asBoolean());
        JsonNode small = type(t -> t.get("acceleratorMemoryGiB").asInt() > 0 && t.get("acceleratorMemoryGiB").asInt() < 40
                && t.get("training").asBoolean());
        String team = team(Map.of(name(big), 1, name(small), 1));
        var body = job("big-model", entry(name(big), 1), entry(name(small), 1));
        body.put("requires", Map.of("minAcceleratorMemoryGiB", 40,
                "acceleratorModels", List.of(big.get("acceleratorModel").asString()),
                "minCudaDriver", big.get("cudaDriver").asInt() + ".0"));

        JsonNode problem = expect(api.post("/api/v1/teams/" + team + "/jobs", body), 400).json();

        assertThat(problem.get("errors")).allMatch(e -> e.get("field").asString().equals("instancePreferences[1].instanceType"));
        assertThat(problem.toString()).contains(small.get("acceleratorMemoryGiB").asInt() + " GiB per accelerator, not 40")
                .contains("not " + big.get("acceleratorModel").asString());
        body.put("instancePreferences", List.of(entry(name(big), 1)));
        assertThat(api.post("/api/v1/teams/" + team + "/placements/explain", body).status()).isEqualTo(200);
    }

    @Test
    void suggestsCountsGivingTheSameAcceleratorsRoundingUp() {
        JsonNode p4d = typeNamed("ml.p4d.24xlarge");
        JsonNode g5 = typeNamed("ml.g5.12xlarge");
        int total = 2 * p4d.get("acceleratorCount").asInt();
        int each = g5.get("acceleratorCount").asInt();

        JsonNode suggestion = suggestion(expect(api.get("/api/v1/catalog/equivalents?instanceType=ml.p4d.24xlarge"
                + "&instanceCount=2&basis=accelerators"), 200).json(), "ml.g5.12xlarge");
        assertThat(suggestion.get("instanceCount").asInt()).isEqualTo(roundUp(total, each)).isEqualTo(4);
        assertThat(suggestion.get("exact").asBoolean()).isTrue();

        int odd = 3 * each;
        JsonNode rounded = suggestion(expect(api.get("/api/v1/catalog/equivalents?instanceType=ml.g5.12xlarge"
                + "&instanceCount=3"), 200).json(), "ml.p4d.24xlarge");
        assertThat(rounded.get("instanceCount").asInt()).isEqualTo(roundUp(odd, p4d.get("acceleratorCount").asInt()));
        assertThat(rounded.get("total").asInt()).isGreaterThan(odd);
        assertThat(rounded.get("exact").asBoolean()).isFalse();
    }

    @Test
    void suggestsTheSameKindOfAcceleratorFirst() {
        JsonNode suggestions = expect(api.get("/api/v1/catalog/equivalents?instanceType=ml.p4d.24xlarge"
                + "&instanceCount=2"), 200).json();
        String firstKind = typeNamed(suggestions.get(0).get("instanceType").asString()).get("acceleratorKind").asString();

        assertThat(firstKind).isEqualTo(typeNamed("ml.p4d.24xlarge").get("acceleratorKind").asString());
    }

    @Test
    void suggestsCountsGivingTheSameAcceleratorMemory() {
        JsonNode p4de = typeNamed("ml.p4de.24xlarge");
        JsonNode p4d = typeNamed("ml.p4d.24xlarge");
        int memory = p4de.get("acceleratorCount").asInt() * p4de.get("acceleratorMemoryGiB").asInt();
        int each = p4d.get("acceleratorCount").asInt() * p4d.get("acceleratorMemoryGiB").asInt();

        JsonNode suggestion = suggestion(expect(api.get("/api/v1/catalog/equivalents?instanceType=ml.p4de.24xlarge"
                + "&instanceCount=1&basis=acceleratorMemory"), 200).json(), "ml.p4d.24xlarge");

        assertThat(suggestion.get("instanceCount").asInt()).isEqualTo(roundUp(memory, each));
    }

    @Test
    void rejectsBadEquivalentQueries() {
        JsonNode problem = expect(api.get("/api/v1/catalog/equivalents?instanceType=ml.nope&instanceCount=0"
                + "&basis=vibes"), 400).json();

        assertThat(problem.toString()).contains("instanceType").contains("instanceCount").contains("basis");
    }

    private JsonNode suggestion(JsonNode suggestions, String type) {
        for (JsonNode s : suggestions) {
            if (s.get("instanceType").asString().equals(type)) {
                return s;
            }
        }
        throw new AssertionError("no suggestion of " + type + " in " + suggestions);
    }

    private JsonNode typeNamed(String name) {
        return type(t -> name(t).equals(name));
    }

    private JsonNode type(Predicate<JsonNode> wanted) {
        var types = new ArrayList<JsonNode>();
        expect(api.get("/api/v1/catalog/instance-types"), 200).json().forEach(types::add);
        return types.stream().filter(wanted).findFirst().orElseThrow(() -> new AssertionError("no such type"));
    }

    private static int roundUp(int total, int each) {
        return (total + each - 1) / each;
    }

    private static String name(JsonNode type) {
        return type.get("instanceType").asString();
    }
}
