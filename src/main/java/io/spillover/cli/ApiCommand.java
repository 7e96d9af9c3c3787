package io.spillover.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import tools.jackson.databind.JsonNode;

/** What every command shares: its options of profile, team and output, and how it prints an answer. */
abstract class ApiCommand implements Callable<Integer> {

    @ParentCommand
    SpilloverCli root;

    @Option(names = "--profile", paramLabel = "NAME",
            description = "the profile of ~/.spillover/config to use (default: $SPILLOVER_PROFILE, else default)")
    String profile;

    @Option(names = "--team", paramLabel = "TEAM",
            description = "the team (default: $SPILLOVER_TEAM, else the profile's team, else the token's only team)")
    String team;

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default) or json: the API's answer as it is, for programs")
    Output output;

    @Override
    public final Integer call() {
        return run().code;
    }

    abstract ExitCode run();

    Invocation invocation() {
        return root.invocation;
    }

    boolean json() {
        return output == Output.json;
    }

    Connection connection() {
        return Connection.resolve(invocation(), profile, team);
    }

    /** The team's path in the API: {@code /api/v1/teams/TEAM}. */
    static String teamPath(String team) {
        return "/api/v1/teams/" + SpilloverApi.segment(team);
    }

    void printJson(JsonNode answer) {
        invocation().out().println(SpilloverApi.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(answer));
        invocation().out().flush();
    }

    void print(List<String> lines) {
        lines.forEach(invocation().out()::println);
        invocation().out().flush();
    }

    void print(String line) {
        print(List.of(line));
    }
}
