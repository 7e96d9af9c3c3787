package io.spillover.capacity;

import io.spillover.placement.PlanState;
import java.util.List;
import java.util.Optional;

/** Where the capacity snapshot learns of training plans; implemented by the plans module. */
public interface PlanDirectory {

    List<PlanState> plans();

    /** The provider's ARN of a registered plan, when it was given one. */
    Optional<String> arn(String plan);
}
