package io.spillover.fleet;

import io.spillover.fleet.Evidence.Acknowledged;
import io.spillover.providers.sagemaker.FakeSageMaker;
import io.spillover.support.Api;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * A steady stream of submissions, as pipelines send them: one job every {@code pace}, in turn to each serving
 * instance, each with a client token of its own. A submission that fails because its instance died (no
 * answer, or a 5xx) is sent again to another instance with the same token, until one answers 200 or 201:
 * then the job is acknowledged, and must exist. Every tenth job runs long and is stopped by its user once it
 * runs. Job {@code i} is drawn from a seed of its own, so every run asks for the same things.
 */
final class JobStream implements Runnable {

    static final String IMAGE = "111122223333.dkr.ecr.us-east-1.amazonaws.com/train:1";
    private static final long SEED = 20261202L;
    private static final Duration GIVE_UP = Duration.ofSeconds(60);
    private static final Duration LONG_RUN = Duration.ofSeconds(30);

    /** What a team may ask for: its instance limit per type, and whether it may use the plan. */
    record Team(String name, Map<String, Integer> limits, boolean usesPlan) {
    }

    private final Replicas replicas;
    private final List<Team> teams;
    private final Map<String, String> tokens;
    private final String plan;
    private final Duration pace;
    private final int most;
    private final AtomicInteger numbers = new AtomicInteger();
    private final List<Acknowledged> acknowledged = new CopyOnWriteArrayList<>();
    private final Map<String, String> toStop = new ConcurrentHashMap<>();
    private final AtomicInteger resent = new AtomicInteger();
    private final AtomicInteger foundByToken = new AtomicInteger();
    private final AtomicInteger stopped = new AtomicInteger();
    private volatile boolean ending;
    private volatile Throwable failure;

    JobStream(Replicas replicas, List<Team> teams, Map<String, String> tokens, String plan, Duration pace, int most) {
        this.replicas = replicas;
        this.teams = List.copyOf(teams);
        this.tokens = Map.copyOf(tokens);
        this.plan = plan;
        this.pace = pace;
        this.most = most;
    }

    /** Ends the stream: no more submissions; the stops asked for are still made. */
    void end() {
        ending = true;
    }

    List<Acknowledged> acknowledged() {
        return List.copyOf(acknowledged);
    }

    /** Submissions sent again after an instance died under them. */
    int resent() {
        return resent.get();
    }

    /** Acknowledgements that were a 200: an earlier try of the submission had made the job. */
    int foundByToken() {
        return foundByToken.get();
    }

    int stopped() {
        return stopped.get();
    }

    /** Why the stream stopped early, if it did: a submission refused or never answered. */
    Throwable failure() {
        return failure;
    }

    @Override
    public void run() {
        try {
            while (!ending && numbers.get() < most) {
                submit(numbers.incrementAndGet(), null);
                stopThoseRunning();
                Thread.sleep(pace.toMillis());
            }
            Instant giveUp = Instant.now().plus(LONG_RUN).plus(GIVE_UP);
            while (!toStop.isEmpty() && Instant.now().isBefore(giveUp)) {
                stopThoseRunning();
                Thread.sleep(pace.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | AssertionError e) {
            failure = e;
        }
    }

    /**
     * Sends {@code count} submissions at once, each first to {@code first}; the client tokens, and when all are
     * acknowledged.
     */
    Burst burst(SpilloverProcess first, int count) {
        List<Integer> burst = IntStream.range(0, count).mapToObj(n -> numbers.incrementAndGet()).toList();
        ExecutorService senders = Executors.newFixedThreadPool(count);
        var all = burst.stream().map(i -> CompletableFuture.runAsync(() -> {
            try {
                submit(i, first);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, senders)).toArray(CompletableFuture[]::new);
        senders.shutdown();
        return new Burst(burst.stream().map(JobStream::token).toList(), CompletableFuture.allOf(all));
    }

    record Burst(List<String> clientTokens, CompletableFuture<Void> acknowledged) {
    }

    private void submit(int i, SpilloverProcess first) throws InterruptedException {
        Team team = teams.get(i % teams.size());
        Map<String, Object> body = body(i, team);
        Instant giveUp = Instant.now().plus(GIVE_UP);
        SpilloverProcess instance = first != null ? first : replicas.next(null);
        String last = "";
        while (Instant.now().isBefore(giveUp)) {
            try {
                Api.Response response = instance.api(tokens.get(team.name()))
                        .post("/api/v1/teams/" + team.name() + "/jobs", body);
                if (response.status() == 200 || response.status() == 201) {
                    acknowledged.add(new Acknowledged(team.name(), token(i), response.json().get("name").asString()));
                    if (response.status() == 200) {
                        foundByToken.incrementAndGet();
                    }
                    if (stopsItself(i)) {
                        toStop.put(response.json().get("name").asString(), team.name());
                    }
                    return;
                }
                if (response.status() < 500) {
                    throw new AssertionError("submission " + token(i) + " refused by " + instance + ": "
                            + response.status() + " " + response.text());
                }
                last = instance + " answered " + response.status() + " " + response.text();
            } catch (RuntimeException e) {
                last = instance + " did not answer: " + e.getMessage(); // it died: send it elsewhere, same token
            }
            resent.incrementAndGet();
            Thread.sleep(100);
            instance = replicas.next(instance);
        }
        throw new AssertionError("submission " + token(i) + " never acknowledged; last: " + last);
    }

    /** Stops the long jobs seen running; a job that ended first needs no stop. */
    private void stopThoseRunning() {
        toStop.forEach((name, team) -> {
            Api api = replicas.next(null).api(tokens.get(team));
            try {
                String status = api.get("/api/v1/teams/" + team + "/jobs/" + name).json().get("status").asString();
                if (status.equals("RUNNING")) {
                    int answer = api.post("/api/v1/teams/" + team + "/jobs/" + name + "/stop", Map.of()).status();
                    if (answer == 200) {
                        stopped.incrementAndGet();
                    }
                    if (answer == 200 || answer == 409) {
                        toStop.remove(name);
                    }
                } else if (Evidence.ENDED.contains(status)) {
                    toStop.remove(name);
                }
            } catch (RuntimeException e) {
                // The instance died under the request: the next round asks another.
            }
        });
    }

    private static boolean stopsItself(int i) {
        return i % 10 == 5;
    }

    private static String token(int i) {
        return "chaos-token-" + i;
    }

    /**
     * Job {@code i}: one or two entries over the scarce types (or the plan first, for teams sharing it), counts
     * within the team's limits, a run time of one to three seconds on the fake provider (or a long one, for a
     * job its user stops).
     */
    private Map<String, Object> body(int i, Team team) {
        var random = new Random(SEED + i);
        var entries = new ArrayList<Map<String, Object>>();
        switch (random.nextInt(team.usesPlan() ? 5 : 4)) {
            case 0 -> entries.add(entry(random, team, "ml.p4d.24xlarge"));
            case 1 -> entries.add(entry(random, team, "ml.g6e.48xlarge"));
            case 2 -> {
                entries.add(entry(random, team, "ml.p4d.24xlarge"));
                entries.add(entry(random, team, "ml.g6e.48xlarge"));
            }
            case 3 -> {
                entries.add(entry(random, team, "ml.g6e.48xlarge"));
                entries.add(entry(random, team, "ml.p4d.24xlarge"));
            }
            default -> {
                var onPlan = new LinkedHashMap<>(entry(random, team, "ml.p5.48xlarge"));
                onPlan.put("trainingPlan", plan);
                entries.add(onPlan);
                entries.add(entry(random, team, "ml.g6e.48xlarge"));
            }
        }
        long runtime = stopsItself(i) ? LONG_RUN.toMillis() : 1000 + random.nextInt(2000);
        var body = new LinkedHashMap<String, Object>();
        body.put("name", "chaos-" + i);
        body.put("kind", "TRAINING");
        body.put("instancePreferences", entries);
        body.put("priority", random.nextInt(10) == 0 ? 1 : 0);
        body.put("clientToken", token(i));
        body.put("container", Map.of("image", IMAGE));
        body.put("sagemaker", Map.of("hyperParameters", Map.of(FakeSageMaker.RUNTIME_MILLIS, String.valueOf(runtime))));
        return body;
    }

    private static Map<String, Object> entry(Random random, Team team, String instanceType) {
        int limit = team.limits().get(instanceType);
        return Map.of("instanceType", instanceType, "instanceCount", 1 + random.nextInt(limit));
    }
}
