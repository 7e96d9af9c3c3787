package io.spillover.capacity;

import java.util.List;
import java.util.Set;

/**
 * The active provider as capacity sees it: its name (stored with every offering), the regions it serves and
 * the on-demand fleet it declares. Implemented by the provider, so capacity does not depend on it.
 */
public interface ProviderFleet {

    /** A short name stored with every offering ("local", "sagemaker"). */
    String name();

    String defaultRegion();

    Set<String> regions();

    /** On-demand capacity as the provider declares it at startup. */
    List<FleetOffering> fleet();
}
