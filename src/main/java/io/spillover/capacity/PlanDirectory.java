package io.spillover.capacity;

import io.spillover.placement.PlanState;
import java.util.List;

/** Where the capacity snapshot learns of training plans; implemented by the plans module. */
public interface PlanDirectory {

    List<PlanState> plans();
}
