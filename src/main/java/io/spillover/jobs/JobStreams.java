package io.spillover.jobs;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The streams of jobs' events ({@code GET /teams/{team}/jobs/{job}/events}, server-sent events) that a pipeline
 * waits on instead of polling. Each stream sends the job's transitions from its log, in order, each with its
 * log id as the event's id (so a client reconnecting with {@code Last-Event-ID} misses nothing), the latest
 * evaluation and estimated start while the job waits, and once the job has ended the described job as {@code end},
 * then closes.
 * <p>
 * Any instance may commit a job's change (the scheduler's placements and the provider's reports happen on the
 * leader), so a change is announced with PostgreSQL {@code NOTIFY} in its transaction and every instance
 * {@code LISTEN}s: the streams of the jobs named catch up from the log, and the instance publishes
 * {@link JobsChanged}. Estimates are announced by team on
 * {@link JobEstimates#CHANNEL}: every stream catches up, and the instance publishes {@link StartsEstimated}. A keep-alive every
 * {@link #HEARTBEAT} also catches every stream up, which heals a notification lost with a broken connection.
 * All sending happens on one thread, so a stream's events never interleave.
 */
@Component
class JobStreams implements SmartLifecycle {

    static final String CHANNEL = "spillover_jobs";
    /** A notification naming more jobs than fit PostgreSQL's payload says "every job" instead. */
    static final String EVERY_JOB = "*";
    static final int MAX_PAYLOAD = 7_900;
    /** The most notifications one announcement sends; more jobs than they name are announced as every job. */
    static final int MAX_NOTICES = 10;
    static final Duration HEARTBEAT = Duration.ofSeconds(15);
    /**
     * How long the listener waits on its socket for notifications before it looks whether to stop: a wait that sends
     * nothing to the database, and bounds how long a shutdown waits for it.
     */
    static final Duration LISTEN_WAIT = Duration.ofMillis(250);
    /** A stream ends after this; the client reconnects with {@code Last-Event-ID}. */
    static final Duration STREAM_TIMEOUT = Duration.ofMinutes(30);
    private static final Logger log = LoggerFactory.getLogger(JobStreams.class);

    /** A transition as the log holds it, with its id. */
    record Logged(long id, TransitionView transition) {
    }

    /** The data of a {@code transition} event: the job's name and team, and the change. */
    record TransitionEvent(String job, String team, java.time.Instant at, JobStatus from, JobStatus to,
                           StatusReason reason, String message, int attempt) {
    }

    private final DataSource dataSource;
    private final JobHistory history;
    private final JobQueries queries;
    private final JobEstimates estimates;
    private final ApplicationEventPublisher events;
    private final Map<UUID, Set<Stream>> open = new ConcurrentHashMap<>();
    private ScheduledExecutorService sender;
    private Thread listener;
    private volatile boolean running;

    JobStreams(DataSource dataSource, JobHistory history, JobQueries queries, JobEstimates estimates,
               ApplicationEventPublisher events) {
        this.dataSource = dataSource;
        this.estimates = estimates;
        this.events = events;
        this.history = history;
        this.queries = queries;
    }

    /**
     * Announces, in the caller's transaction, that these jobs have something new for their streams: in as many
     * notifications as their ids need (a cycle that evaluated a batch of 500 sends three), up to
     * {@value #MAX_NOTICES}; past that, one that says every job.
     */
    static void announce(JdbcClient jdbc, Collection<UUID> jobIds) {
        var payloads = new ArrayList<String>();
        var payload = new StringBuilder();
        for (UUID id : jobIds) {
            if (payload.length() + 37 > MAX_PAYLOAD) {
                payloads.add(payload.toString());
                payload.setLength(0);
            }
            payload.append(payload.isEmpty() ? "" : ",").append(id);
        }
        payloads.add(payload.toString());
        if (payloads.size() > MAX_NOTICES) {
            payloads = new ArrayList<>(List.of(EVERY_JOB));
        }
        jdbc.sql("SELECT pg_notify(?, payload) FROM unnest(CAST(? AS text[])) AS p (payload)")
                .params(CHANNEL, payloads.toArray(String[]::new)).query().listOfRows();
    }

    /** Opens a stream of the job's events after the transition {@code afterId} (0: from its submission). */
    SseEmitter open(JobView job, long afterId) {
        var emitter = new SseEmitter(STREAM_TIMEOUT.toMillis());
        if (!running) {
            emitter.complete();
            return emitter;
        }
        var stream = new Stream(job, emitter, afterId);
        open.computeIfAbsent(job.id(), id -> ConcurrentHashMap.newKeySet()).add(stream);
        emitter.onCompletion(() -> close(stream));
        emitter.onTimeout(() -> close(stream));
        emitter.onError(e -> close(stream));
        sender.execute(() -> catchUp(stream));
        return emitter;
    }

    @Override
    public void start() {
        running = true;
        sender = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "spillover-job-streams"));
        sender.scheduleWithFixedDelay(this::heartbeat, HEARTBEAT.toMillis(), HEARTBEAT.toMillis(),
                TimeUnit.MILLISECONDS);
        listener = daemon(this::listen, "spillover-job-notices");
        listener.start();
    }

    /**
     * Ends open streams before the web server's graceful shutdown, which would otherwise wait for them, and waits for
     * the listener to give its connection back: the pool closes after this, and a listener still on it would use a
     * closed connection (a warning with a stack trace at every shutdown).
     */
    @Override
    public void stop() {
        running = false;
        listener.interrupt();
        sender.shutdownNow();
        open.values().forEach(streams -> streams.forEach(s -> s.emitter.complete()));
        open.clear();
        try {
            listener.join(LISTEN_WAIT.multipliedBy(4).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void changed(String payload) {
        if (EVERY_JOB.equals(payload)) {
            open.values().forEach(streams -> streams.forEach(this::catchUp));
            return;
        }
        for (String id : payload.split(",")) {
            Set<Stream> streams = open.get(UUID.fromString(id));
            if (streams != null) {
                streams.forEach(this::catchUp);
            }
        }
    }

    private void heartbeat() {
        open.values().forEach(streams -> streams.forEach(stream -> {
            catchUp(stream);
            if (!stream.ended) {
                send(stream, SseEmitter.event().comment("keep-alive"));
            }
        }));
    }

    /** Sends what the stream has not sent yet; on the sender thread only. */
    private void catchUp(Stream stream) {
        if (stream.ended) {
            return;
        }
        try {
            for (Logged logged : history.transitionsAfter(stream.jobId, stream.lastId)) {
                TransitionView t = logged.transition();
                stream.lastId = logged.id();
                stream.status = t.to();
                if (!send(stream, SseEmitter.event().id(Long.toString(logged.id())).name("transition")
                        .data(new TransitionEvent(stream.name, stream.team, t.at(), t.from(), t.to(), t.reason(),
                                t.message(), t.attempt()), MediaType.APPLICATION_JSON))) {
                    return;
                }
            }
            if (stream.status == JobStatus.PENDING) {
                List<EvaluationView> latest = history.evaluations(stream.jobId, 1);
                // repeats of the same outcome and reasons are counted, not sent again
                String key = latest.isEmpty() ? null : latest.get(0).at() + "|" + latest.get(0).entries();
                if (key != null && !key.equals(stream.evaluation)) {
                    stream.evaluation = key;
                    send(stream, SseEmitter.event().name("evaluation").data(latest.get(0), MediaType.APPLICATION_JSON));
                }
                EstimatedStart estimate = estimates.of(stream.team, stream.jobId).orElse(null);
                if (estimate != null && !estimate.equals(stream.estimate)) {
                    stream.estimate = estimate;
                    send(stream, SseEmitter.event().name("estimate").data(estimate, MediaType.APPLICATION_JSON));
                }
            }
            if (stream.status.ended()) {
                stream.ended = true;
                send(stream, SseEmitter.event().name("end").data(queries.describe(stream.team, stream.name),
                        MediaType.APPLICATION_JSON));
                stream.emitter.complete();
                close(stream);
            }
        } catch (RuntimeException e) {
            // the database is away: the next notification or heartbeat tries again
            log.debug("Could not catch up the event stream of job {}: {}", stream.name, e.getMessage());
        }
    }

    private boolean send(Stream stream, SseEmitter.SseEventBuilder event) {
        try {
            stream.emitter.send(event);
            return true;
        } catch (IOException | IllegalStateException gone) {
            stream.ended = true;
            close(stream);
            return false;
        }
    }

    private void close(Stream stream) {
        open.computeIfPresent(stream.jobId, (id, streams) -> {
            streams.remove(stream);
            return streams.isEmpty() ? null : streams;
        });
    }

    private void listen() {
        boolean reconnected = false;
        while (running) {
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(true);
                try (Statement statement = connection.createStatement()) {
                    statement.execute("LISTEN " + CHANNEL);
                    statement.execute("LISTEN " + JobEstimates.CHANNEL);
                }
                if (reconnected) {
                    notice(EVERY_JOB); // whatever was announced meanwhile is lost
                    changedJobs(EVERY_JOB);
                }
                PGConnection postgres = connection.unwrap(PGConnection.class);
                try {
                    while (running) {
                        PGNotification[] notifications = postgres.getNotifications((int) LISTEN_WAIT.toMillis());
                        if (notifications != null) {
                            for (PGNotification notification : notifications) {
                                if (JobEstimates.CHANNEL.equals(notification.getName())) {
                                    estimated(notification.getParameter());
                                } else {
                                    notice(notification.getParameter());
                                    changedJobs(notification.getParameter());
                                }
                            }
                        }
                    }
                } finally {
                    try (Statement statement = connection.createStatement()) {
                        statement.execute("UNLISTEN *");
                    }
                }
            } catch (SQLException e) {
                if (!running) {
                    return;
                }
                log.warn("Lost the connection that listens for jobs' changes; reconnecting: {}", e.getMessage());
                reconnected = true;
                try {
                    Thread.sleep(1_000);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    private void notice(String payload) {
        if (!open.isEmpty()) {
            try {
                sender.execute(() -> changed(payload));
            } catch (java.util.concurrent.RejectedExecutionException stopping) {
                // stopping
            }
        }
    }

    /** Tells this instance's listeners which jobs changed ({@link JobsChanged}). */
    private void changedJobs(String payload) {
        try {
            events.publishEvent(new JobsChanged(EVERY_JOB.equals(payload) ? Set.of()
                    : Arrays.stream(payload.split(",")).map(UUID::fromString).collect(Collectors.toSet())));
        } catch (RuntimeException e) {
            log.debug("A listener of jobs' changes failed: {}", e.getMessage());
        }
    }

    /** Estimates of the teams moved: every stream catches up (each reads its own), and pages hear of it. */
    private void estimated(String teams) {
        notice(EVERY_JOB);
        try {
            events.publishEvent(new StartsEstimated(EVERY_JOB.equals(teams) || teams.isEmpty() ? Set.of()
                    : Set.of(teams.split(","))));
        } catch (RuntimeException e) {
            log.debug("A listener of estimates failed: {}", e.getMessage());
        }
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }

    /** One open stream; its fields are touched on the sender thread only. */
    private static final class Stream {
        final UUID jobId;
        final String team;
        final String name;
        final SseEmitter emitter;
        long lastId;
        JobStatus status;
        String evaluation;
        EstimatedStart estimate;
        volatile boolean ended;

        Stream(JobView job, SseEmitter emitter, long afterId) {
            this.jobId = job.id();
            this.team = job.team();
            this.name = job.name();
            this.emitter = emitter;
            this.lastId = afterId;
            this.status = job.status();
        }
    }
}
