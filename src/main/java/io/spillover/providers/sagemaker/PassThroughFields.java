package io.spillover.providers.sagemaker;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.services.sagemaker.model.CreateTrainingJobRequest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Merges a job's pass-through fields into the JSON of its CreateTrainingJob / CreateProcessingJob call after the
 * SDK marshalled it and before it is signed. Working on the JSON, not the SDK's model, sends every field as the
 * job gave it, also those this SDK version does not know yet.
 *
 * <p>A pass-through field is added, or replaces the SDK's value, except: the fields Spillover decides ({@link
 * #owned}) stay Spillover's; an object Spillover built only merges with an object; {@code Tags} are added to
 * Spillover's own tags (whose keys stay Spillover's values).
 */
final class PassThroughFields implements ExecutionInterceptor {

    /** The fields to merge into one create call, set on its request's override configuration. */
    static final ExecutionAttribute<Map<String, Object>> FIELDS = new ExecutionAttribute<>("spillover.passThrough");
    private static final ExecutionAttribute<byte[]> MERGED = new ExecutionAttribute<>("spillover.passThrough.merged");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final Set<String> OWNED_BY_BOTH = Set.of("RoleArn", "StoppingCondition.MaxPendingTimeInSeconds");
    private static final Set<String> OWNED_IN_TRAINING = Set.of("TrainingJobName", "ResourceConfig.InstanceType",
            "ResourceConfig.InstanceCount", "ResourceConfig.InstancePreferences", "ResourceConfig.TrainingPlanArn",
            "ResourceConfig.InstanceGroups");
    private static final Set<String> OWNED_IN_PROCESSING = Set.of("ProcessingJobName",
            "ProcessingResources.ClusterConfig.InstanceType", "ProcessingResources.ClusterConfig.InstanceCount",
            "ProcessingResources.ClusterConfig.InstancePreferences");

    // The SDK asks for the content and the request in an order of its own: whichever comes first merges.
    @Override
    public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        return merged(context, attributes).map(body -> context.httpRequest().toBuilder()
                .putHeader("Content-Length", String.valueOf(body.length)).build()).orElse(context.httpRequest());
    }

    @Override
    public Optional<RequestBody> modifyHttpContent(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        return merged(context, attributes).map(RequestBody::fromBytes).or(context::requestBody);
    }

    private static Optional<byte[]> merged(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        byte[] done = attributes.getAttribute(MERGED);
        if (done != null) {
            return Optional.of(done);
        }
        Map<String, Object> fields = attributes.getAttribute(FIELDS);
        if (fields == null || fields.isEmpty() || context.requestBody().isEmpty()) {
            return Optional.empty();
        }
        boolean training = context.request() instanceof CreateTrainingJobRequest;
        byte[] merged = JSON.writeValueAsBytes(merge(read(context.requestBody().get()), fields, training));
        attributes.putAttribute(MERGED, merged);
        return Optional.of(merged);
    }

    /** The create call's JSON with the fields merged in; {@code call} is changed and returned. */
    static ObjectNode merge(ObjectNode call, Map<String, Object> fields, boolean training) {
        mergeInto(call, JSON.valueToTree(fields), "", owned(training));
        return call;
    }

    /** The fields Spillover decides, as dotted paths: a pass-through value for one of them is ignored. */
    static Set<String> owned(boolean training) {
        var owned = new HashSet<>(OWNED_BY_BOTH);
        owned.addAll(training ? OWNED_IN_TRAINING : OWNED_IN_PROCESSING);
        return Set.copyOf(owned);
    }

    private static void mergeInto(ObjectNode target, JsonNode extra, String at, Set<String> owned) {
        for (Map.Entry<String, JsonNode> field : extra.properties()) {
            String name = field.getKey();
            String path = at.isEmpty() ? name : at + "." + name;
            JsonNode value = field.getValue();
            JsonNode existing = target.get(name);
            if (owned.contains(path) || value == null || value.isNull()) {
                continue;
            }
            if (path.equals("Tags") && value.isArray()) {
                target.set(name, tags(value, existing));
            } else if (existing instanceof ObjectNode object) {
                if (value.isObject()) {
                    mergeInto(object, value, path, owned);
                }
            } else {
                target.set(name, value);
            }
        }
    }

    /** The job's own tags, then Spillover's; a job's tag with a key of Spillover's gives way to it. */
    private static ArrayNode tags(JsonNode given, JsonNode spillovers) {
        ArrayNode tags = JSON.createArrayNode();
        var keys = new HashSet<String>();
        if (spillovers != null && spillovers.isArray()) {
            spillovers.forEach(t -> keys.add(t.path("Key").asString("")));
        }
        given.forEach(t -> {
            if (!keys.contains(t.path("Key").asString(""))) {
                tags.add(t);
            }
        });
        if (spillovers != null && spillovers.isArray()) {
            spillovers.forEach(tags::add);
        }
        return tags;
    }

    private static ObjectNode read(RequestBody body) {
        try (InputStream in = body.contentStreamProvider().newStream()) {
            return (ObjectNode) JSON.readTree(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
