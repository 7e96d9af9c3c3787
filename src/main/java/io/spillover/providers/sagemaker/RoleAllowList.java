package io.spillover.providers.sagemaker;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The execution roles the platform lets each team run as ({@code spillover.sagemaker.allowed-role-arns}), so that
 * one team cannot pass another's role: patterns where {@code {team}} stands for the team's name and {@code *}
 * for any run of characters, as in IAM policies. With no pattern every role passes.
 */
final class RoleAllowList {

    private static final Pattern ROLE_PATTERN = Pattern.compile("arn:aws[a-z-]*:iam::(\\d{12}|\\*):role/\\S+");

    private final List<String> patterns;

    RoleAllowList(List<String> patterns) {
        this.patterns = List.copyOf(patterns);
    }

    static boolean looksLikeRolePattern(String pattern) {
        return ROLE_PATTERN.matcher(pattern).matches();
    }

    boolean allows(String team, String roleArn) {
        return patterns.isEmpty() || patterns.stream().anyMatch(p -> regex(p, team).matcher(roleArn).matches());
    }

    /** The patterns as they read for the team, for a refusal to show what would pass. */
    List<String> forTeam(String team) {
        return patterns.stream().map(p -> p.replace("{team}", team)).toList();
    }

    /** Why a role is refused, in words. */
    String refusal(String team, String roleArn) {
        return "role " + roleArn + " is not one team " + team + " may run as (spillover.sagemaker.allowed-role-arns: "
                + String.join(", ", forTeam(team)) + ")";
    }

    private static Pattern regex(String pattern, String team) {
        String[] literals = pattern.replace("{team}", team).split("\\*", -1);
        var regex = new StringBuilder(Pattern.quote(literals[0]));
        for (int i = 1; i < literals.length; i++) {
            regex.append(".*").append(Pattern.quote(literals[i]));
        }
        return Pattern.compile(regex.toString());
    }
}
