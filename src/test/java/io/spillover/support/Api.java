package io.spillover.support;

import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A small HTTP client for the API under test: raw status and JSON, never throwing on error statuses. */
public final class Api {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    private final RestClient http;
    private final int port;

    /** A client without credentials. */
    public Api(int port) {
        this(port, null);
    }

    /** A client sending {@code Authorization: Bearer <token>}. */
    public Api(int port, String token) {
        this.port = port;
        var builder = RestClient.builder().baseUrl("http://localhost:" + port)
                .defaultStatusHandler(HttpStatusCode::isError, (request, response) -> { });
        if (token != null) {
            builder.defaultHeader("Authorization", "Bearer " + token);
        }
        this.http = builder.build();
    }

    /** The same server, another token (null: none). */
    public Api as(String token) {
        return new Api(port, token);
    }

    /** A response: its status and body, parsed as JSON when it is JSON, and its headers. */
    public record Response(int status, String text, HttpHeaders headers) {

        public Response(int status, String text) {
            this(status, text, new HttpHeaders());
        }

        /** The header's first value, null when absent. */
        public String header(String name) {
            return headers.getFirst(name);
        }

        public JsonNode json() {
            return JSON.readTree(text == null || text.isEmpty() ? "null" : text);
        }

        public <T> T as(Class<T> type) {
            return JSON.readValue(text, type);
        }
    }

    public Response get(String path) {
        return http.get().uri(path).exchange((request, response) ->
                new Response(response.getStatusCode().value(), response.bodyTo(String.class), response.getHeaders()));
    }

    public Response post(String path, Object body) {
        return send(http.post().uri(path), body);
    }

    public Response delete(String path) {
        return http.delete().uri(path).exchange((request, response) ->
                new Response(response.getStatusCode().value(), response.bodyTo(String.class), response.getHeaders()));
    }

    public Response put(String path, Object body) {
        return send(http.put().uri(path), body);
    }

    /** Sends a map or record as JSON, or a string as it is (for malformed bodies). */
    private Response send(RestClient.RequestBodySpec spec, Object body) {
        String text = body instanceof String raw ? raw : JSON.writeValueAsString(body);
        return spec.contentType(MediaType.APPLICATION_JSON).body(text).exchange((request, response) ->
                new Response(response.getStatusCode().value(), response.bodyTo(String.class), response.getHeaders()));
    }

    public static Map<String, Object> entry(String instanceType, int count) {
        return Map.of("instanceType", instanceType, "instanceCount", count);
    }
}
