package io.spillover.queue;

import java.util.Map;

/** Every team's fair-share weight, by name: the port {@link FairShares} reads it through, owned by tenancy. */
public interface TeamWeights {

    Map<String, Integer> weights();
}
