package io.spillover.webhooks;

import com.standardwebhooks.Webhook;
import io.spillover.system.SecretBox;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Delivers the outbox. Every instance dispatches: it expands new events into deliveries, claims those that are
 * due with a lease in PostgreSQL ({@code FOR UPDATE SKIP LOCKED}, so two instances never claim one delivery),
 * sends each on a thread of its own without holding a database connection, and settles it with the attempt. A
 * delivery is the first of its job's still pending for its hook, so a hook gets a job's events in order.
 * <p>
 * An instance that dies mid-delivery (SIGKILL) leaves its claims leased; when the lease runs out
 * ({@code 2 × timeout}), another instance sends them again, with the same {@code webhook-id}: at least once, and
 * never by two instances at once, as a sender gives up on its own before its lease ends. Nothing here touches the
 * scheduler: a slow or dead receiver holds one of this instance's delivery threads for at most {@code timeout},
 * and one hook at most a quarter of them.
 */
@Component
class Dispatcher implements SmartLifecycle {

    static final int EXPAND_BATCH = 500;
    /**
     * How long after a commit that wrote events the dispatcher waits before it expands and claims them: the
     * commit that wrote them often also woke the scheduler (a job ended, freeing capacity), whose cycle should
     * have the cores first. Measured in docs/benchmarks.md, section 4.
     */
    static final Duration AFTER_COMMIT = Duration.ofMillis(100);
    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);
    private static final String INSTANCE = ManagementFactory.getRuntimeMXBean().getName();

    private final Deliveries deliveries;
    private final Egress egress;
    private final SecretBox secrets;
    private final WebhookProperties properties;
    private final Clock clock;
    /** TRUE: a delivery settled (act now); FALSE: events were committed (act after {@link #AFTER_COMMIT}). */
    private final LinkedBlockingQueue<Boolean> wakeups = new LinkedBlockingQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private ExecutorService senders;
    private Thread loop;
    private volatile boolean running;

    Dispatcher(Deliveries deliveries, Egress egress, SecretBox secrets, WebhookProperties properties, Clock clock) {
        this.deliveries = deliveries;
        this.egress = egress;
        this.secrets = secrets;
        this.properties = properties;
        this.clock = clock;
    }

    /** Events committed here are sent at once; other instances' are found within {@code poll-interval}. */
    @TransactionalEventListener(fallbackExecution = true)
    void on(Outbox.Written written) {
        wakeups.offer(Boolean.FALSE);
    }

    void wake() {
        wakeups.offer(Boolean.TRUE);
    }

    @Override
    public void start() {
        running = true;
        AtomicInteger threads = new AtomicInteger();
        senders = Executors.newFixedThreadPool(properties.concurrency(), r -> {
            Thread thread = new Thread(r, "spillover-webhook-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        loop = new Thread(this::run, "spillover-webhooks");
        loop.setDaemon(true);
        loop.start();
    }

    @Override
    public void stop() {
        running = false;
        if (loop != null) {
            loop.interrupt();
        }
        if (senders != null) {
            senders.shutdown();
            try {
                // deliveries in flight finish or time out; what is cut short is sent again after its lease
                senders.awaitTermination(properties.timeout().toMillis() + 1_000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stops after the web server (the default phase), so the last requests' events are still sent. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 1;
    }

    private void run() {
        boolean failing = false;
        while (running) {
            Duration wait = properties.pollInterval();
            try {
                while (deliveries.expand(EXPAND_BATCH) == EXPAND_BATCH) {
                    // more to expand
                }
                int free = properties.concurrency() - inFlight.get();
                if (free > 0) {
                    for (Deliveries.Claimed claimed : deliveries.claim(free, properties.perHook(), properties.lease(),
                            INSTANCE)) {
                        inFlight.incrementAndGet();
                        long claimedAt = System.nanoTime();
                        senders.execute(() -> deliver(claimed, claimedAt));
                    }
                }
                wait = deliveries.untilNext().filter(d -> d.compareTo(properties.pollInterval()) < 0)
                        .orElse(properties.pollInterval());
                if (failing) {
                    log.info("Webhook deliveries resumed: the database answers again");
                    failing = false;
                }
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                if (!failing) {
                    log.warn("Webhook deliveries wait: {}", e.getMessage());
                    failing = true;
                }
            }
            try {
                Boolean woken = wakeups.poll(Math.max(1, wait.toMillis()), TimeUnit.MILLISECONDS);
                if (Boolean.FALSE.equals(woken) && !wakeups.contains(Boolean.TRUE)) {
                    Thread.sleep(AFTER_COMMIT.toMillis());
                }
                wakeups.clear();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void deliver(Deliveries.Claimed claimed, long claimedAt) {
        try {
            // a claim that waited for a thread past half its lease might outlive it while sending: give it back
            if (!running || Duration.ofNanos(System.nanoTime() - claimedAt).compareTo(properties.timeout()) > 0) {
                deliveries.release(claimed);
                return;
            }
            Deliveries.Outcome outcome = attempt(claimed);
            deliveries.settle(claimed, outcome, delay(claimed), properties.retry().giveUpAfter(), INSTANCE);
            if (!outcome.delivered()) {
                log.debug("Delivery {} to hook {} of {} failed: {}", claimed.id(), claimed.webhook(), claimed.team(),
                        outcome.error());
            }
        } catch (RuntimeException e) {
            // the database went away: the lease runs out and the delivery is sent again
            log.warn("Could not settle webhook delivery {}: {}", claimed.id(), e.getMessage());
        } finally {
            inFlight.decrementAndGet();
            wake();
        }
    }

    private Deliveries.Outcome attempt(Deliveries.Claimed claimed) {
        long started = System.nanoTime();
        try {
            Egress.Target target = egress.resolve(claimed.url());
            byte[] secret = secrets.open(claimed.secret(), claimed.secretKeyId());
            long timestamp = clock.instant().getEpochSecond();
            String signature = new Webhook(secret).sign(claimed.eventId().toString(), timestamp, claimed.body());
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("Content-Type", CloudEvents.CONTENT_TYPE);
            headers.put("User-Agent", "Spillover-Webhooks/1");
            headers.put("webhook-id", claimed.eventId().toString());
            headers.put("webhook-timestamp", Long.toString(timestamp));
            headers.put("webhook-signature", signature);
            PinnedPost.Answer answer = PinnedPost.send(target, headers,
                    claimed.body().getBytes(StandardCharsets.UTF_8), properties.timeout());
            int status = answer.status();
            boolean delivered = status / 100 == 2;
            String error = delivered ? null : "answered " + status + (status / 100 == 3
                    ? " (redirects are not followed)" : "") + (answer.body().isEmpty() ? "" : ": " + answer.body());
            return new Deliveries.Outcome(delivered, status == 410, status, millisSince(started), error);
        } catch (Egress.Refused refused) {
            return failed(started, "refused: " + refused.getMessage());
        } catch (SocketTimeoutException e) {
            return failed(started, "no answer within " + properties.timeout().toSeconds() + " s");
        } catch (IOException e) {
            return failed(started, e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        } catch (com.standardwebhooks.exceptions.WebhookSigningException | RuntimeException e) {
            return failed(started, "could not sign: " + e.getMessage());
        }
    }

    private static Deliveries.Outcome failed(long started, String error) {
        return new Deliveries.Outcome(false, false, null, millisSince(started), error);
    }

    private static int millisSince(long started) {
        return (int) Duration.ofNanos(System.nanoTime() - started).toMillis();
    }

    private Duration delay(Deliveries.Claimed claimed) {
        return delay(claimed.attempts(), properties.retry().initialDelay(), properties.retry().maxDelay());
    }

    /** The wait before the next try: doubling from the initial delay up to the maximum, less up to half (jitter). */
    static Duration delay(int attemptsBefore, Duration initial, Duration max) {
        long millis = initial.toMillis();
        for (int i = 0; i < attemptsBefore && millis < max.toMillis(); i++) {
            millis *= 2;
        }
        millis = Math.min(millis, max.toMillis());
        return Duration.ofMillis(millis / 2 + ThreadLocalRandom.current().nextLong(millis / 2 + 1));
    }
}
