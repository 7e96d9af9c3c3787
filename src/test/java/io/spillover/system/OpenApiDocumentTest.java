package io.spillover.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillover.support.ApiTest;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;

/** The OpenAPI document lists exactly the operations the application serves under /api/v1. */
class OpenApiDocumentTest extends ApiTest {

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    @Test
    void documentsEveryApiOperationAndNoOther() {
        Set<String> served = new HashSet<>();
        mappings.getHandlerMethods().forEach((info, method) -> {
            for (String path : info.getPatternValues()) {
                if (path.startsWith("/api/v1/")) {
                    for (RequestMethod verb : info.getMethodsCondition().getMethods()) {
                        served.add(verb.name() + " " + path);
                    }
                }
            }
        });

        JsonNode document = expect(api.get("/v3/api-docs"), 200).json();
        Set<String> documented = new HashSet<>();
        document.get("paths").properties().forEach(path -> path.getValue().properties()
                .forEach(operation -> documented.add(operation.getKey().toUpperCase() + " " + path.getKey())));

        assertThat(served).isNotEmpty();
        assertThat(documented).isEqualTo(served);
        assertThat(expect(api.get("/swagger-ui/index.html"), 200).text()).contains("Swagger UI");
    }

    @Test
    void documentsTheSageMakerShapedBodyInTheApisOwnFieldNames() {
        JsonNode document = expect(api.get("/v3/api-docs"), 200).json();
        JsonNode operation = document.get("paths").get("/api/v1/teams/{team}/jobs:sagemaker").get("post");
        JsonNode schemas = document.get("components").get("schemas");

        String body = operation.at("/requestBody/content/application~1json/schema/$ref").asString();
        JsonNode request = schemas.get(body.substring(body.lastIndexOf('/') + 1));
        String resources = request.at("/properties/ResourceConfig/$ref").asString();

        assertThat(operation.get("summary").asString()).contains("CreateTrainingJob");
        assertThat(request.get("properties").propertyNames()).contains("TrainingJobName", "ProcessingJobName",
                "ResourceConfig", "StoppingCondition", "ClientToken").doesNotContain("others");
        assertThat(schemas.get(resources.substring(resources.lastIndexOf('/') + 1)).get("properties").propertyNames())
                .contains("InstanceType", "InstanceCount", "InstancePreferences").doesNotContain("others");
    }

    @Test
    void documentsATeamsSharingAndAJobsPreemption() {
        JsonNode schemas = expect(api.get("/v3/api-docs"), 200).json().get("components").get("schemas");

        assertThat(schemas.at("/TeamDefinition/properties/sharing").isMissingNode()).isFalse();
        assertThat(schemas.get("SharingDefinition").get("properties").propertyNames())
                .containsExactlyInAnyOrder("strategy", "borrowLimitPercent", "borrowLimits");
        assertThat(schemas.at("/SharingDefinition/properties/strategy/enum").valueStream().map(JsonNode::asString))
                .containsExactly("RESERVE", "LEND", "LEND_AND_BORROW");
        assertThat(schemas.get("JobRequest").get("properties").propertyNames()).contains("preemptible");
        assertThat(schemas.get("JobView").get("properties").propertyNames()).contains("preemptible", "preemptions");
        assertThat(schemas.get("Selection").get("properties").propertyNames()).contains("borrowedInstances");
        assertThat(schemas.get("Usage").get("properties").propertyNames()).contains("borrowed", "lent");
    }
}
