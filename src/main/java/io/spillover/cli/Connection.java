package io.spillover.cli;

import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Where and as whom a command calls: the profile's {@code url}, {@code token} and {@code team}, each overridden
 * by {@code SPILLOVER_URL}, {@code SPILLOVER_TOKEN} and {@code SPILLOVER_TEAM}; {@code --team} beats both.
 */
record Connection(String profile, String url, String token, String team) {

    static Connection resolve(Invocation invocation, String profileOption, String teamOption) {
        String profile = profileOption != null ? profileOption
                : invocation.env("SPILLOVER_PROFILE") != null ? invocation.env("SPILLOVER_PROFILE") : ConfigFile.DEFAULT;
        ConfigFile config = ConfigFile.of(invocation);
        Map<String, Map<String, String>> profiles = config.profiles();
        Map<String, String> saved = profiles.getOrDefault(profile, Map.of());
        if (profileOption != null && !profiles.containsKey(profile)) {
            throw new UsageException("no profile " + profile + " in " + config.path()
                    + ": run `spillover login --profile " + profile + "`");
        }
        String url = first(invocation.env("SPILLOVER_URL"), saved.get("url"));
        String token = first(invocation.env("SPILLOVER_TOKEN"), saved.get("token"));
        if (url == null || token == null) {
            throw new UsageException("no Spillover " + (url == null ? "URL" : "token") + " for profile " + profile
                    + ": run `spillover login`" + (ConfigFile.DEFAULT.equals(profile) ? "" : " --profile " + profile)
                    + " or set " + (url == null ? "SPILLOVER_URL" : "SPILLOVER_TOKEN"));
        }
        return new Connection(profile, url, token, first(teamOption, invocation.env("SPILLOVER_TEAM"), saved.get("team")));
    }

    SpilloverApi api() {
        return new SpilloverApi(url, token);
    }

    /** The team named, else the only team the token belongs to. */
    String team(SpilloverApi api) {
        if (team != null) {
            return team;
        }
        JsonNode memberships = api.get("/api/v1/me").path("memberships");
        if (memberships.size() == 1) {
            return memberships.propertyNames().iterator().next();
        }
        throw new UsageException("which team? the token " + (memberships.isEmpty() ? "belongs to no team" : "belongs to "
                + memberships.size() + " teams") + ": give --team, set SPILLOVER_TEAM or run `spillover login --team`");
    }

    private static String first(String... values) {
        for (String value : values) {
            if (value != null && !value.isBlank()) {
                return value.strip();
            }
        }
        return null;
    }
}
