package io.spillover.cli;

import picocli.CommandLine.Command;
import tools.jackson.databind.JsonNode;

@Command(name = "profiles", description = "Lists the team's preference profiles (for a job's \"profile\" field).")
final class ProfilesCommand extends ApiCommand {

    @Override
    ExitCode run() {
        Connection connection = connection();
        SpilloverApi api = connection.api();
        JsonNode profiles = api.get(teamPath(connection.team(api)) + "/profiles");
        if (json()) {
            printJson(profiles);
        } else {
            print(JobText.profiles(profiles));
        }
        return ExitCode.OK;
    }
}
