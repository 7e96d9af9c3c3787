package io.spillover.cli;

import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

@Command(name = "stop", description = "Stops a job: a pending one at once, a running one on the provider.")
final class StopCommand extends ApiCommand {

    @Parameters(paramLabel = "JOB", description = "the job's name")
    String job;

    @Option(names = "--wait", description = "wait until the job has ended")
    boolean wait;

    @Option(names = "--timeout", paramLabel = "DURATION", converter = Durations.class,
            description = "with --wait: give up after this long, exit 6")
    Duration timeout;

    /** Kept so that existing scripts still run: the wait follows the job's event stream and reads nothing on a timer. */
    @Option(names = "--interval", paramLabel = "DURATION", converter = Durations.class, hidden = true)
    Duration interval;

    @Override
    ExitCode run() {
        Connection connection = connection();
        SpilloverApi api = connection.api();
        String teamName = connection.team(api);
        JsonNode stopped = api.post(teamPath(teamName) + "/jobs/" + SpilloverApi.segment(job) + "/stop", null);
        if (wait) {
            stopped = new JobWait(api, teamName, job, timeout, invocation()).untilEnded();
        }
        if (json()) {
            printJson(stopped);
        } else {
            print(JobText.summary(stopped));
        }
        return ExitCode.OK;
    }
}
