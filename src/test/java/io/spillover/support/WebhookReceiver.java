package io.spillover.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.databind.JsonNode;

/**
 * A webhook receiver on 127.0.0.1 for tests: it records every request, checks its signature with an
 * implementation of the Standard Webhooks check of its own (written from the specification, not the library the
 * service signs with), and answers as the test tells it (a status after a delay). It also counts how many
 * requests carrying one {@code webhook-id} were in progress at once.
 */
public final class WebhookReceiver implements AutoCloseable {

    /** What to answer a request: a status, after a delay. */
    public record Answer(int status, Duration delay) {
        public static Answer ok() {
            return new Answer(204, Duration.ZERO);
        }
    }

    /** A request as received. */
    public record Received(String webhookId, String timestamp, String signature, String contentType, byte[] body,
                           Instant at, boolean verified, int answered) {

        public JsonNode event() {
            return Api.JSON.readTree(body);
        }

        public String type() {
            return event().get("type").asString();
        }

        public String subject() {
            return event().path("subject").asString();
        }
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> inProgress = new ConcurrentHashMap<>();
    private final AtomicInteger overlaps = new AtomicInteger();
    private volatile String secret;
    private volatile Function<Received, Answer> answers = r -> Answer.ok();

    public WebhookReceiver() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread thread = new Thread(r, "webhook-receiver");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    /** The URL of a path on this receiver, e.g. {@code http://127.0.0.1:40123/hooks/a}. */
    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The hook's signing secret ({@code whsec_...}), to check signatures with. */
    public WebhookReceiver secret(String whsec) {
        this.secret = whsec;
        return this;
    }

    /** How to answer from now on (the request as received, not yet with its answer). */
    public WebhookReceiver answering(Function<Received, Answer> answers) {
        this.answers = answers;
        return this;
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    /** The requests answered 2xx. */
    public List<Received> accepted() {
        return received.stream().filter(r -> r.answered() / 100 == 2).toList();
    }

    /** Requests with one {@code webhook-id} that were in progress at the same time; 0 when deliveries never overlap. */
    public int overlaps() {
        return overlaps.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        var headers = exchange.getRequestHeaders();
        String id = headers.getFirst("webhook-id");
        String timestamp = headers.getFirst("webhook-timestamp");
        String signature = headers.getFirst("webhook-signature");
        var request = new Received(id, timestamp, signature, headers.getFirst("Content-Type"), body, Instant.now(),
                secret != null && verify(secret, id, timestamp, signature, body), 0);
        AtomicInteger concurrent = inProgress.computeIfAbsent(String.valueOf(id), k -> new AtomicInteger());
        if (concurrent.incrementAndGet() > 1) {
            overlaps.incrementAndGet();
        }
        try {
            Answer answer = answers.apply(request);
            if (!answer.delay().isZero()) {
                try {
                    Thread.sleep(answer.delay().toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            received.add(new Received(id, timestamp, signature, request.contentType(), body, request.at(),
                    request.verified(), answer.status()));
            exchange.sendResponseHeaders(answer.status(), -1);
        } finally {
            concurrent.decrementAndGet();
            exchange.close();
        }
    }

    /**
     * The Standard Webhooks check, from the specification: the timestamp within five minutes of now, and one of the
     * space-separated {@code v1,<base64>} signatures equal (in constant time) to the HMAC-SHA256, keyed with the
     * base64 after {@code whsec_}, of {@code <id>.<timestamp>.} followed by the body's bytes.
     */
    public static boolean verify(String whsec, String id, String timestamp, String signatures, byte[] body) {
        if (id == null || timestamp == null || signatures == null || !whsec.startsWith("whsec_")) {
            return false;
        }
        long sent;
        try {
            sent = Long.parseLong(timestamp);
        } catch (NumberFormatException e) {
            return false;
        }
        if (Math.abs(Instant.now().getEpochSecond() - sent) > 300) {
            return false;
        }
        byte[] expected;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(whsec.substring("whsec_".length())), "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            expected = mac.doFinal(body);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
        for (String versioned : signatures.split(" ")) {
            int comma = versioned.indexOf(',');
            if (comma > 0 && versioned.substring(0, comma).equals("v1")) {
                byte[] given;
                try {
                    given = Base64.getDecoder().decode(versioned.substring(comma + 1));
                } catch (IllegalArgumentException e) {
                    continue;
                }
                if (MessageDigest.isEqual(given, expected)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The first receipt of each webhook-id, in order of receipt. */
    public List<Received> firstReceipts() {
        var seen = new java.util.HashSet<String>();
        var first = new ArrayList<Received>();
        for (Received r : received.stream().sorted(java.util.Comparator.comparing(Received::at)).toList()) {
            if (seen.add(r.webhookId())) {
                first.add(r);
            }
        }
        return first;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
