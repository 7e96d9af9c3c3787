package io.spillover.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

@Command(name = "describe", description = "Shows one job: status, selection, preferences, times, transitions and,"
        + " while it waits, its estimated start and its latest evaluation.")
final class DescribeCommand extends ApiCommand {

    @Parameters(paramLabel = "JOB", description = "the job's name")
    String job;

    @Override
    ExitCode run() {
        Connection connection = connection();
        SpilloverApi api = connection.api();
        String path = teamPath(connection.team(api)) + "/jobs/" + SpilloverApi.segment(job);
        JsonNode described = api.get(path);
        if (json()) {
            printJson(described);
            return ExitCode.OK;
        }
        print(JobText.describe(described));
        if ("PENDING".equals(JobText.text(described, "status"))) {
            JsonNode latest = api.get(path + "/evaluations?limit=1");
            if (!latest.isEmpty()) {
                print(JobText.evaluation(latest.get(0)));
            }
        }
        return ExitCode.OK;
    }
}
