package io.spillover.providers.local;

import io.spillover.capacity.FleetOffering;
import io.spillover.catalog.Catalog;
import io.spillover.catalog.JobKind;
import io.spillover.placement.OfferingKey;
import io.spillover.providers.CapacityProvider;
import io.spillover.providers.LaunchOutcome;
import io.spillover.providers.LaunchRequest;
import io.spillover.providers.ProviderJobChanged;
import io.spillover.providers.ProviderJobStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

/**
 * Runs jobs on this machine. A job with a command is a process, its output the job's log; one without is
 * simulated for {@code local.runtimeSeconds}. Capacity is the declared fleet, which admins may change at run
 * time, and an offering can be set to refuse launches to rehearse a cloud's insufficient-capacity errors.
 */
@Component
@ConditionalOnProperty(name = "spillover.provider", havingValue = "local", matchIfMissing = true)
class LocalProvider implements CapacityProvider, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(LocalProvider.class);

    private final LocalProperties properties;
    private final LocalFleet fleet;
    private final Path runsDir;
    private final Path checkpointsDir;
    private final ApplicationEventPublisher events;
    private final Map<String, LocalRun> runs = new ConcurrentHashMap<>();
    private final Set<OfferingKey> refusing = ConcurrentHashMap.newKeySet();
    private volatile boolean closing;
    private final ScheduledExecutorService timers = Executors.newScheduledThreadPool(1, r -> {
        Thread thread = new Thread(r, "spillover-local-timers");
        thread.setDaemon(true);
        return thread;
    });

    LocalProvider(LocalProperties properties, Catalog catalog, @Value("${spillover.data-dir}") Path dataDir,
                  ApplicationEventPublisher events) {
        this.properties = properties;
        this.fleet = LocalFleet.read(properties.fleet(), catalog);
        this.runsDir = dataDir.toAbsolutePath().resolve("runs");
        this.checkpointsDir = dataDir.toAbsolutePath().resolve("checkpoints");
        this.events = events;
        if (!fleet.regions().contains(properties.region())) {
            throw new IllegalStateException("spillover.local.region " + properties.region()
                    + " is not a region of the fleet " + fleet.regions());
        }
    }

    @Override
    public String name() {
        return "local";
    }

    @Override
    public String defaultRegion() {
        return properties.region();
    }

    @Override
    public Set<String> regions() {
        return fleet.regions();
    }

    @Override
    public List<FleetOffering> fleet() {
        return fleet.offerings();
    }

    /** Makes launches on the offering fail as a cloud does when it has no capacity, or stops doing so. */
    void refuseLaunches(OfferingKey offering, boolean refuse) {
        if (refuse) {
            refusing.add(offering);
        } else {
            refusing.remove(offering);
        }
    }

    boolean refusesLaunches(OfferingKey offering) {
        return refusing.contains(offering);
    }

    @Override
    public synchronized LaunchOutcome launch(LaunchRequest request) {
        if (runs.containsKey(request.providerJobName())) {
            return new LaunchOutcome.Launched();
        }
        OfferingKey offering = request.trainingPlan() == null
                ? OfferingKey.onDemand(request.region(), request.instanceType())
                : OfferingKey.plan(request.region(), request.instanceType(), request.trainingPlan());
        if (refusing.contains(offering)) {
            return new LaunchOutcome.InsufficientCapacity("InsufficientCapacityError: no " + request.instanceType()
                    + " capacity in " + request.region() + " (refusal set by an admin)");
        }
        Path dir = runsDir.resolve(request.providerJobName());
        LocalRun run;
        try {
            Files.createDirectories(dir);
            Path checkpoint = request.preemptible() ? checkpointOf(request) : null;
            if (checkpoint != null) {
                Files.createDirectories(checkpoint);
            }
            List<String> command = command(request);
            run = !command.isEmpty() ? LocalRun.process(request, command, dir, checkpoint, this::report)
                    : LocalRun.simulated(request, dir, simulatedRuntime(request), exitCode(request), timers, this::report);
        } catch (IOException e) {
            return new LaunchOutcome.Failed("could not start " + request.providerJobName() + ": " + e.getMessage());
        }
        runs.put(request.providerJobName(), run);
        report(run.name(), ProviderJobStatus.RUNNING, "running on " + request.instanceCount() + " x "
                + request.instanceType() + " (local)");
        run.begin();
        return new LaunchOutcome.Launched();
    }

    @Override
    public void stop(String providerJobName) {
        stop(providerJobName, properties.stopGrace());
    }

    /** SIGTERM to the job's process, SIGKILL after the grace; a preempted job saves its checkpoint in between. */
    @Override
    public void stop(String providerJobName, Duration grace) {
        LocalRun run = runs.get(providerJobName);
        if (run != null) {
            run.stop(grace);
        }
    }

    /**
     * A preemptible job's checkpoint directory: one per job (its team, its name and its id), the same for each of its
     * attempts, under {@code spillover.data-dir}.
     */
    Path checkpointOf(LaunchRequest request) {
        return checkpointsDir.resolve(request.team()).resolve(request.jobName() + "-" + request.jobId());
    }

    @Override
    public Optional<ProviderJobStatus> describe(String providerJobName) {
        return Optional.ofNullable(runs.get(providerJobName)).map(LocalRun::status);
    }

    @Override
    public Optional<String> logs(String providerJobName) {
        Path log = runsDir.resolve(providerJobName).resolve(LocalRun.LOG);
        if (!Files.exists(log)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readString(log, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void report(String name, ProviderJobStatus status, String message) {
        if (closing) {
            return; // the jobs are lost with this process; the next start reconciles them
        }
        try {
            events.publishEvent(new ProviderJobChanged(name, status, message));
        } catch (RuntimeException e) {
            log.error("Could not record that {} is {}; the next scheduler takeover reconciles it", name, status, e);
        }
    }

    /**
     * The job's command: its container's, else the entrypoint and arguments a SageMaker-shaped body gave
     * ({@code AlgorithmSpecification.ContainerEntrypoint} and {@code ContainerArguments}, or {@code AppSpecification}'s
     * for a processing job), so a job made by unchanged SageMaker client code runs here as it would in its container.
     */
    static List<String> command(LaunchRequest request) {
        if (request.container() != null && !request.container().command().isEmpty()) {
            return request.container().command();
        }
        if (request.sagemaker() == null) {
            return List.of();
        }
        Object spec = request.sagemaker().passThrough().get(request.kind() == JobKind.TRAINING
                ? "AlgorithmSpecification" : "AppSpecification");
        var command = new ArrayList<String>();
        if (spec instanceof Map<?, ?> fields && fields.get("ContainerEntrypoint") instanceof List<?> entrypoint) {
            entrypoint.forEach(part -> command.add(String.valueOf(part)));
            if (fields.get("ContainerArguments") instanceof List<?> arguments) {
                arguments.forEach(part -> command.add(String.valueOf(part)));
            }
        }
        return command;
    }

    private Duration simulatedRuntime(LaunchRequest request) {
        return request.local() != null && request.local().runtimeSeconds() != null
                ? Duration.ofSeconds(request.local().runtimeSeconds()) : properties.defaultRuntime();
    }

    private static int exitCode(LaunchRequest request) {
        return request.local() != null && request.local().exitCode() != null ? request.local().exitCode() : 0;
    }

    static void appendLog(Path file, String line) {
        try {
            Files.writeString(file, line + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void destroy() throws InterruptedException {
        closing = true;
        runs.values().forEach(LocalRun::kill);
        timers.shutdownNow();
        timers.awaitTermination(2, TimeUnit.SECONDS);
    }
}
