package io.spillover.cli;

import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.node.ObjectNode;

@Command(name = "logs", description = {"Prints a job's output (local provider), or where its CloudWatch logs are"
        + " (SageMaker).", "With --follow, prints what it adds until the job ends (with --output json: all of it, once, at the end)."})
final class LogsCommand extends ApiCommand {

    @Parameters(paramLabel = "JOB", description = "the job's name")
    String job;

    @Option(names = {"-f", "--follow"}, description = "keep printing new output until the job ends")
    boolean follow;

    @Option(names = "--interval", paramLabel = "DURATION", converter = Durations.class, defaultValue = "2s",
            description = "with --follow: how often to read the output (default: 2s)")
    Duration interval;

    @Override
    ExitCode run() {
        Connection connection = connection();
        SpilloverApi api = connection.api();
        String path = teamPath(connection.team(api)) + "/jobs/" + SpilloverApi.segment(job);
        String shown = "";
        while (true) {
            // Read the status first: output read after the job ended is then all of it.
            boolean ended = !follow || ExitCode.ended(JobText.text(api.get(path), "status"));
            String logs = api.getText(path + "/logs");
            if (!json()) {
                String added = logs.startsWith(shown) ? logs.substring(shown.length()) : logs;
                invocation().out().print(added);
                invocation().out().flush();
            }
            shown = logs;
            if (ended) {
                if (json()) {
                    ObjectNode answer = SpilloverApi.JSON.createObjectNode();
                    answer.put("job", job);
                    answer.put("logs", logs);
                    printJson(answer);
                }
                return ExitCode.OK;
            }
            pause(interval);
        }
    }

    private static void pause(java.time.Duration duration) {
        try {
            Thread.sleep(Math.max(1, duration.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(0, "interrupted while waiting", null);
        }
    }
}
