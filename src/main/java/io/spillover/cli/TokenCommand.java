package io.spillover.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

@Command(name = "token", description = {"Makes an API token of the team (team admins), with an access key id and"
        + " secret for SageMaker clients with --access-key.",
        "Its secrets are shown in this answer only: keep them now. A SageMaker client signs with the access key and"
                + " points its endpoint URL at <url>/sagemaker."})
final class TokenCommand extends ApiCommand {

    @Parameters(index = "0", paramLabel = "NAME", description = "what the token is for, to recognise it by")
    String name;

    @Option(names = "--role", paramLabel = "ROLE", defaultValue = "MEMBER",
            description = "MEMBER (default: submit, stop and read the team's jobs) or TEAM_ADMIN")
    String role;

    @Option(names = "--access-key", description = "also make an access key id and secret for SigV4-signed calls")
    boolean accessKey;

    @Override
    ExitCode run() {
        Connection connection = connection();
        SpilloverApi api = connection.api();
        ObjectNode body = SpilloverApi.JSON.createObjectNode().put("name", name).put("role", role)
                .put("accessKey", accessKey);
        JsonNode token = api.post(teamPath(connection.team(api)) + "/tokens", body);
        if (json()) {
            printJson(token);
            return ExitCode.OK;
        }
        print("token:             " + token.path("secret").asString(""));
        if (token.hasNonNull("accessKeyId")) {
            print("access key id:     " + token.get("accessKeyId").asString());
            print("secret access key: " + token.path("secretAccessKey").asString(""));
            print("SageMaker endpoint: " + connection.url().replaceAll("/+$", "") + "/sagemaker");
        }
        print("Shown once: keep them now.");
        return ExitCode.OK;
    }
}
