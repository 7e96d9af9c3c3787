package io.spillover.providers.local;

import io.spillover.providers.LaunchRequest;
import io.spillover.providers.ProviderJobStatus;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** One attempt running on this machine: a process, or a timer standing in for one. */
final class LocalRun {

    static final String LOG = "output.log";
    /** The variable naming a preemptible job's checkpoint directory. */
    static final String CHECKPOINT_DIR = "SPILLOVER_CHECKPOINT_DIR";

    /** Where a run reports its changes of state. */
    interface Reports {
        void report(String providerJobName, ProviderJobStatus status, String message);
    }

    private final String name;
    private final Path log;
    private final Reports reports;
    private final Process process;
    private final Simulation simulation;
    private volatile ProviderJobStatus status = ProviderJobStatus.STARTING;
    private volatile boolean stopRequested;
    private volatile ScheduledFuture<?> timer;

    /** How a run without a process behaves. */
    private record Simulation(Duration runtime, int exitCode, ScheduledExecutorService timers) {
    }

    private LocalRun(String name, Path log, Reports reports, Process process, Simulation simulation) {
        this.name = name;
        this.log = log;
        this.reports = reports;
        this.process = process;
        this.simulation = simulation;
    }

    /**
     * Starts the command with the job's environment and the variables naming what it runs on, and where its
     * checkpoint is ({@value #CHECKPOINT_DIR}) when it has one: the same directory for every attempt of the job.
     */
    static LocalRun process(LaunchRequest request, List<String> command, Path dir, Path checkpoint, Reports reports)
            throws IOException {
        Path log = dir.resolve(LOG);
        var builder = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(request.container().environment());
        builder.environment().put("SPILLOVER_INSTANCE_TYPE", request.instanceType());
        builder.environment().put("SPILLOVER_INSTANCE_COUNT", Integer.toString(request.instanceCount()));
        builder.environment().put("SPILLOVER_JOB_NAME", request.jobName());
        builder.environment().put("SPILLOVER_REGION", request.region());
        if (checkpoint != null) {
            builder.environment().put(CHECKPOINT_DIR, checkpoint.toString());
        }
        return new LocalRun(request.providerJobName(), log, reports, builder.start(), null);
    }

    /** A stand-in for a job without a command: it runs for {@code runtime} and exits with {@code exitCode}. */
    static LocalRun simulated(LaunchRequest request, Path dir, Duration runtime, int exitCode,
                              ScheduledExecutorService timers, Reports reports) {
        Path log = dir.resolve(LOG);
        LocalProvider.appendLog(log, "simulated " + request.kind().name().toLowerCase() + " job " + request.jobName()
                + " on " + request.instanceCount() + " x " + request.instanceType() + " in " + request.region()
                + " for " + runtime.toSeconds() + " s, exiting with " + exitCode);
        return new LocalRun(request.providerJobName(), log, reports, null, new Simulation(runtime, exitCode, timers));
    }

    String name() {
        return name;
    }

    ProviderJobStatus status() {
        return status;
    }

    /** Marks the run as running and starts watching for its end. */
    void begin() {
        status = ProviderJobStatus.RUNNING;
        if (process != null) {
            process.onExit().thenAccept(exited -> ended(exited.exitValue()));
        } else {
            timer = simulation.timers().schedule(() -> ended(simulation.exitCode()),
                    simulation.runtime().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Asks the process to end (SIGTERM), killing it (SIGKILL) after the grace period; a simulated run just ends. A
     * stop of a run already being stopped changes nothing: the first stop's grace stands.
     */
    synchronized void stop(Duration grace) {
        if (status.ended() || stopRequested) {
            return;
        }
        stopRequested = true;
        if (process != null) {
            process.destroy();
            process.onExit().orTimeout(Math.max(1, grace.toMillis()), TimeUnit.MILLISECONDS)
                    .exceptionally(timeout -> {
                        process.destroyForcibly();
                        return process;
                    });
        } else {
            ScheduledFuture<?> pending = timer;
            if (pending != null) {
                pending.cancel(false);
            }
            ended(0);
        }
    }

    /** Ends the run at once: the process is killed, whatever grace a stop gave it. */
    void kill() {
        stop(Duration.ZERO);
        if (process != null) {
            process.destroyForcibly();
        }
    }

    private synchronized void ended(int exitCode) {
        if (status.ended()) {
            return;
        }
        String message;
        if (stopRequested) {
            status = ProviderJobStatus.STOPPED;
            message = "stopped";
        } else if (exitCode == 0) {
            status = ProviderJobStatus.COMPLETED;
            message = "exited with code 0";
        } else {
            status = ProviderJobStatus.FAILED;
            message = "exited with code " + exitCode;
        }
        LocalProvider.appendLog(log, "[spillover] " + message);
        reports.report(name, status, message);
    }
}
