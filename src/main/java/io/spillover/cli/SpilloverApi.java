package io.spillover.cli;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The REST API of one Spillover, as one caller: JSON in and out, error answers as {@link ApiException}. */
final class SpilloverApi {

    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
    private final String base;
    private final String token;

    SpilloverApi(String url, String token) {
        this.base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        this.token = token;
    }

    String url() {
        return base;
    }

    /** One path segment, escaped: names come from the command line. */
    static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    JsonNode get(String path) {
        return JSON.readTree(send(request(path).GET(), path));
    }

    String getText(String path) {
        return send(request(path).header("Accept", "text/plain, application/problem+json").GET(), path);
    }

    JsonNode post(String path, JsonNode body) {
        String text = body == null ? "{}" : JSON.writeValueAsString(body);
        return JSON.readTree(send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(text)), path));
    }

    /**
     * Opens a stream of server-sent events ({@code text/event-stream}) at the path, resuming after
     * {@code lastEventId} when given. The stream has no overall timeout: it ends when the server ends it, or when
     * it is closed.
     */
    EventStream events(String path, String lastEventId) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .header("Authorization", "Bearer " + token)
                .header("Accept", "text/event-stream, application/problem+json")
                .header("User-Agent", "spillover-cli").GET();
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<java.io.InputStream> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new ApiException(0, "cannot reach Spillover at " + base + ": " + describe(e), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(0, "interrupted while calling " + base + path, null);
        }
        if (response.statusCode() >= 400) {
            String body;
            try (var in = response.body()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                body = "";
            }
            String text = body;
            throw refused(new TextResponse(response.statusCode(), text));
        }
        return new EventStream(response.body());
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT)
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/json, application/problem+json")
                .header("User-Agent", "spillover-cli");
    }

    private String send(HttpRequest.Builder request, String path) {
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new ApiException(0, "cannot reach Spillover at " + base + ": " + describe(e), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(0, "interrupted while calling " + base + path, null);
        }
        if (response.statusCode() >= 400) {
            throw refused(new TextResponse(response.statusCode(), response.body()));
        }
        return response.body();
    }

    /** An answer's status and body, whichever way it was read. */
    private record TextResponse(int statusCode, String body) {
    }

    /** The problem's detail, else its title, else the status and what the body says. */
    private static ApiException refused(TextResponse response) {
        int status = response.statusCode();
        JsonNode problem = null;
        try {
            problem = JSON.readTree(response.body());
        } catch (JacksonException notJson) {
            // a proxy's page, say: shown below as it is
        }
        if (problem != null && problem.isObject()) {
            String detail = problem.path("detail").asString(null);
            if (detail == null) {
                detail = problem.path("title").asString("HTTP " + status);
            }
            return new ApiException(status, detail + " (HTTP " + status + ")", problem);
        }
        String body = response.body() == null ? "" : response.body().strip();
        return new ApiException(status, "HTTP " + status + (body.isEmpty() ? ""
                : ": " + (body.length() > 200 ? body.substring(0, 200) + "..." : body)), null);
    }

    private static String describe(IOException e) {
        if (e instanceof java.net.ConnectException) {
            return "connection refused";
        }
        if (e instanceof java.net.http.HttpConnectTimeoutException) {
            return "no connection within " + CONNECT_TIMEOUT.toSeconds() + " s";
        }
        if (e instanceof java.net.http.HttpTimeoutException) {
            return "no answer within " + TIMEOUT.toSeconds() + " s";
        }
        String message = e.getMessage();
        if (message == null || message.isBlank()) {
            message = e.getClass().getSimpleName();
        }
        return message;
    }
}
