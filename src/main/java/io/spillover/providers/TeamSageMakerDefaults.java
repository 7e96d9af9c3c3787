package io.spillover.providers;

import java.util.Map;

/**
 * Each team's SageMaker defaults, kept whatever the active provider (so they can be set before a switch to
 * SageMaker, and the console shows them); only the SageMaker provider runs jobs with them.
 */
public interface TeamSageMakerDefaults {

    /** The team's settings, {@link TeamSageMakerSettings#NONE} when none were set; 404 for no such team. */
    TeamSageMakerSettings of(String team);

    /** Every team's that has any, by team. */
    Map<String, TeamSageMakerSettings> all();

    /**
     * Replaces the team's settings, checked first (shapes, and the role against the platform's allow-list), every
     * problem at once naming its field; nothing is stored on a refusal.
     */
    TeamSageMakerSettings put(String team, TeamSageMakerSettings settings);
}
