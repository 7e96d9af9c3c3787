package io.spillover.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** A browser without a screen: the console over plain HTTP, with a session cookie and the forms' CSRF token. */
public final class ConsoleSession {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .cookieHandler(new CookieManager()).build();
    private final int port;

    public ConsoleSession(int port) {
        this.port = port;
    }

    /** Signs in through the login form; answers the login's response (302 either way). */
    public HttpResponse<String> signIn(String username, String password) {
        return post("/login", Map.of("username", username, "password", password, "_csrf", csrf("/login")));
    }

    /** The CSRF token of the forms on a page. */
    public String csrf(String page) {
        Matcher matcher = CSRF.matcher(get(page).body());
        if (!matcher.find()) {
            throw new AssertionError("no CSRF token on " + page);
        }
        return matcher.group(1);
    }

    public HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET().build());
    }

    /**
     * Opens an event stream and reads it up to its first event's data, then lets it go: the status, and what was
     * read (the whole body when it is not a stream, a redirect or an error page, say).
     */
    public HttpResponse<String> firstEvent(String path) {
        HttpRequest request = HttpRequest.newBuilder(uri(path)).header("Accept", "text/event-stream").GET().build();
        try {
            HttpResponse<java.util.stream.Stream<String>> response = http.send(request,
                    HttpResponse.BodyHandlers.ofLines());
            var read = new StringBuilder();
            try (var lines = response.body()) {
                var iterator = lines.iterator();
                while (iterator.hasNext()) {
                    String line = iterator.next();
                    read.append(line).append('\n');
                    if (line.startsWith("data:")) {
                        break;
                    }
                }
            }
            return new ReadResponse(response, read.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Opens an event stream and reads it in the background until it is closed. */
    public EventStream events(String path) {
        HttpRequest request = HttpRequest.newBuilder(uri(path)).header("Accept", "text/event-stream").GET().build();
        var stream = new EventStream();
        http.sendAsync(request, HttpResponse.BodyHandlers.ofLines()).thenAccept(response -> {
            stream.body = response.body();
            try {
                response.body().forEach(stream.lines::add);
            } catch (RuntimeException closed) {
                // closed by the test, or by the server at its end
            }
        });
        return stream;
    }

    /** The lines an open event stream has sent so far. */
    public static final class EventStream implements AutoCloseable {

        private final java.util.List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        private volatile java.util.stream.Stream<String> body;

        public java.util.List<String> lines() {
            return java.util.List.copyOf(lines);
        }

        @Override
        public void close() {
            if (body != null) {
                body.close();
            }
        }
    }

    /** A response of which only part of the body was read. */
    private record ReadResponse(HttpResponse<?> of, String body) implements HttpResponse<String> {
        public int statusCode() { return of.statusCode(); }
        public HttpRequest request() { return of.request(); }
        public java.util.Optional<HttpResponse<String>> previousResponse() { return java.util.Optional.empty(); }
        public java.net.http.HttpHeaders headers() { return of.headers(); }
        public java.util.Optional<javax.net.ssl.SSLSession> sslSession() { return of.sslSession(); }
        public URI uri() { return of.uri(); }
        public HttpClient.Version version() { return of.version(); }
    }

    /** Posts a form as a browser does, fields URL-encoded. */
    public HttpResponse<String> post(String path, Map<String, String> form) {
        String body = form.entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }
}
