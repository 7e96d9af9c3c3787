package io.spillover.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;

@Command(name = "jobs", description = "Lists the team's jobs, newest first.")
final class JobsCommand extends ApiCommand {

    @Option(names = "--status", paramLabel = "STATUS",
            description = "only jobs in this status: PENDING, STARTING, RUNNING, STOPPING, COMPLETED, FAILED, STOPPED")
    String status;

    @Option(names = "--page", paramLabel = "N", defaultValue = "0", description = "the page, from 0")
    int page;

    @Option(names = "--size", paramLabel = "N", defaultValue = "20", description = "jobs per page (up to 200)")
    int size;

    @Override
    ExitCode run() {
        Connection connection = connection();
        SpilloverApi api = connection.api();
        String query = "?page=" + page + "&size=" + size
                + (status == null ? "" : "&status=" + SpilloverApi.segment(status.toUpperCase(java.util.Locale.ROOT)));
        JsonNode jobs = api.get(teamPath(connection.team(api)) + "/jobs" + query);
        if (json()) {
            printJson(jobs);
        } else {
            print(JobText.table(jobs));
        }
        return ExitCode.OK;
    }
}
