package io.spillover.cli;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

@Command(name = "login", description = {"Checks a URL and API token against the service and saves them as a profile of"
        + " ~/.spillover/config (mode 600).", "Without --token the token is read from the terminal, hidden, or from"
        + " the first line of standard input."})
final class LoginCommand extends ApiCommand {

    @Option(names = "--url", paramLabel = "URL",
            description = "the service, e.g. https://spillover.example.com (default: $SPILLOVER_URL, else the profile's)")
    String url;

    @Option(names = "--token", paramLabel = "TOKEN", description = "the API token (a team's or a platform admin's)")
    String token;

    @Override
    ExitCode run() {
        Invocation invocation = invocation();
        ConfigFile config = ConfigFile.of(invocation);
        String name = profile != null ? profile
                : invocation.env("SPILLOVER_PROFILE") != null ? invocation.env("SPILLOVER_PROFILE") : ConfigFile.DEFAULT;
        Map<String, String> saved = config.profiles().getOrDefault(name, Map.of());
        String address = url != null ? url : invocation.env("SPILLOVER_URL") != null ? invocation.env("SPILLOVER_URL")
                : saved.get("url");
        if (address == null) {
            throw new UsageException("login needs --url (or SPILLOVER_URL)");
        }
        checkUrl(address);
        String secret = token != null ? token : readToken(invocation);
        JsonNode caller = new SpilloverApi(address, secret).get("/api/v1/me");
        String chosen = team != null ? team : invocation.env("SPILLOVER_TEAM");
        JsonNode memberships = caller.path("memberships");
        if (chosen == null && memberships.size() == 1) {
            chosen = memberships.propertyNames().iterator().next();
        }
        if (chosen != null && !caller.path("platformAdmin").asBoolean() && !memberships.has(chosen)) {
            throw new UsageException("the token is not a member of team " + chosen + " (its teams: "
                    + String.join(", ", new ArrayList<>(memberships.propertyNames())) + ")");
        }
        var settings = new LinkedHashMap<String, String>();
        settings.put("url", address);
        settings.put("token", secret);
        if (chosen != null) {
            settings.put("team", chosen);
        }
        config.save(name, settings);
        if (json()) {
            ObjectNode answer = SpilloverApi.JSON.createObjectNode();
            answer.put("profile", name);
            answer.put("url", address);
            answer.put("team", chosen);
            answer.put("config", config.path().toString());
            answer.set("caller", caller);
            printJson(answer);
        } else {
            print("signed in to " + address + " as " + JobText.text(caller, "name")
                    + (chosen == null ? "" : ", team " + chosen) + "; saved as profile " + name + " in " + config.path());
        }
        return ExitCode.OK;
    }

    private static void checkUrl(String address) {
        try {
            URI uri = URI.create(address);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return;
            }
        } catch (IllegalArgumentException e) {
            // said below
        }
        throw new UsageException("--url " + address + " is not an http:// or https:// address with a host");
    }

    private static String readToken(Invocation invocation) {
        String secret;
        if (invocation.terminal() && System.console() != null) {
            char[] typed = System.console().readPassword("API token: ");
            secret = typed == null ? null : new String(typed);
        } else {
            try {
                secret = invocation.in().readLine();
            } catch (IOException e) {
                throw new UsageException("cannot read the token from standard input: " + e.getMessage());
            }
        }
        if (secret == null || secret.isBlank()) {
            throw new UsageException("no token: give --token, or type it, or pipe it on standard input");
        }
        return secret.strip();
    }
}
