package io.spillover.cli;

import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

@Command(name = "wait", description = {"Waits until a job ends, on its event stream (no polling), telling each"
        + " transition with its reason and why each entry does not fit while it waits.", "Exits 0 when the job"
        + " completed, 1 when it failed, 3 when it was stopped, 4 when its maximum pending time passed, 6 when"
        + " --timeout passed first."})
final class WaitCommand extends ApiCommand {

    @Parameters(paramLabel = "JOB", description = "the job's name")
    String job;

    @Option(names = "--timeout", paramLabel = "DURATION", converter = Durations.class,
            description = "give up after this long (e.g. 30m, 2h), exit 6; the job goes on")
    Duration timeout;

    @Override
    ExitCode run() {
        Connection connection = connection();
        SpilloverApi api = connection.api();
        String teamName = connection.team(api);
        JsonNode ended = new JobWait(api, teamName, job, timeout, invocation()).untilEnded();
        if (json()) {
            printJson(ended);
        } else {
            print(JobText.summary(ended) + SubmitCommand.messageOf(ended));
        }
        return ExitCode.ofEnded(JobText.text(ended, "status"), JobText.text(ended, "statusReason"));
    }
}
