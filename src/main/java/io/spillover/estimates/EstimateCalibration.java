package io.spillover.estimates;

import io.spillover.replay.Situation;
import io.spillover.replay.StartEstimate;
import java.util.Map;
import java.util.UUID;

/**
 * The one place where a forecast's estimates are corrected before they are stored and shown: for instance widened or
 * shifted by how past estimates compared with the starts that followed. A bean of this type, if the application has
 * one, is applied to every estimation; without one the forecast's figures stand as they are.
 */
@FunctionalInterface
public interface EstimateCalibration {

    /** The forecast's figures as they are. */
    EstimateCalibration NONE = (estimates, situation) -> estimates;

    /**
     * @param estimates the forecast's estimate of every pending job, by job id
     * @param situation what the forecast started from
     * @return the estimates to store, by job id; a job left out is shown as not estimated
     */
    Map<UUID, StartEstimate> calibrate(Map<UUID, StartEstimate> estimates, Situation<UUID> situation);
}
