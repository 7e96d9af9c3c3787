package io.spillover.cli;

import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

@Command(name = "submit", description = {"Submits a job from a YAML or JSON file: the same body as POST"
        + " /api/v1/teams/{team}/jobs.", "With --wait, watches it until it ends, showing its transitions and why each"
        + " entry does not fit while it waits, and exits with the job's outcome."})
final class SubmitCommand extends ApiCommand {

    @Option(names = {"-f", "--file"}, required = true, paramLabel = "FILE",
            description = "the job: .json as JSON, .yaml/.yml (or - for standard input) as YAML")
    String file;

    @Option(names = "--wait", description = "wait for the job to end; exit 0 if it completed")
    boolean wait;

    @Option(names = "--preemptible", description = "the job can be stopped and resumed from its checkpoint: it may"
            + " borrow other teams' idle quota and be preempted when they need it back (as preemptible: true)")
    boolean preemptible;

    @Option(names = "--timeout", paramLabel = "DURATION", converter = Durations.class,
            description = "with --wait: give up after this long (e.g. 30m, 2h), exit 6; the job goes on")
    Duration timeout;

    /** Kept so that existing scripts still run: the wait follows the job's event stream and reads nothing on a timer. */
    @Option(names = "--interval", paramLabel = "DURATION", converter = Durations.class, hidden = true)
    Duration interval;

    @Override
    ExitCode run() {
        ObjectNode body = JobFile.read(file, invocation());
        if (preemptible) {
            body.put("preemptible", true);
        }
        Connection connection = connection();
        SpilloverApi api = connection.api();
        String teamName = connection.team(api);
        JsonNode job = api.post(teamPath(teamName) + "/jobs", body);
        if (!wait) {
            if (json()) {
                printJson(job);
            } else {
                print("submitted " + JobText.text(job, "name") + " to team " + teamName + ": " + JobText.text(job, "status"));
            }
            return ExitCode.OK;
        }
        invocation().err().println("submitted " + JobText.text(job, "name") + " to team " + teamName + "; waiting");
        JsonNode ended = new JobWait(api, teamName, JobText.text(job, "name"), timeout, invocation())
                .untilEnded();
        if (json()) {
            printJson(ended);
        } else {
            print(JobText.summary(ended) + messageOf(ended));
        }
        return ExitCode.ofEnded(JobText.text(ended, "status"), JobText.text(ended, "statusReason"));
    }

    static String messageOf(JsonNode job) {
        String message = JobText.text(job, "statusMessage");
        return message.isEmpty() ? "" : ": " + message;
    }
}
