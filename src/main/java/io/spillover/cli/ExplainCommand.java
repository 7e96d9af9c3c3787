package io.spillover.cli;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

@Command(name = "explain", description = {"Where a job would be placed now, and why not on each other entry;"
        + " nothing is submitted.", "For a submitted job, its preferences as stored are explained again against the"
        + " capacity of now."})
final class ExplainCommand extends ApiCommand {

    static final class What {
        @Parameters(paramLabel = "JOB", description = "a submitted job's name")
        String job;

        @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "a job file, as for submit")
        String file;
    }

    @ArgGroup(multiplicity = "1")
    What what;

    @Override
    ExitCode run() {
        ObjectNode body = what.file != null ? JobFile.read(what.file, invocation()) : null;
        Connection connection = connection();
        SpilloverApi api = connection.api();
        String teamPath = teamPath(connection.team(api));
        if (body == null) {
            body = bodyOf(api.get(teamPath + "/jobs/" + SpilloverApi.segment(what.job)));
        }
        JsonNode explained = api.post(teamPath + "/placements/explain", body);
        if (json()) {
            printJson(explained);
        } else {
            print(JobText.explained(explained));
        }
        return ExitCode.OK;
    }

    /** The explain body of a submitted job: its kind, requirements and preferences as stored, each with its count. */
    static ObjectNode bodyOf(JsonNode job) {
        ObjectNode body = SpilloverApi.JSON.createObjectNode();
        body.set("kind", job.get("kind"));
        if (job.path("requires").isObject()) {
            body.set("requires", job.get("requires"));
        }
        ArrayNode entries = body.putArray("instancePreferences");
        for (JsonNode stored : job.path("instancePreferences")) {
            ObjectNode entry = entries.addObject();
            for (String field : new String[] {"instanceType", "instanceCount", "region", "trainingPlan"}) {
                if (!stored.path(field).isNull() && !stored.path(field).isMissingNode()) {
                    entry.set(field, stored.get(field));
                }
            }
        }
        return body;
    }
}
