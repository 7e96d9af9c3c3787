package io.spillover.capacity;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The active provider as capacity sees it: its name (stored with every offering), the regions it serves, the
 * on-demand fleet it declares and, when it can read them, the account's limits of the types nobody declared.
 * Implemented by the provider, so capacity does not depend on it.
 */
public interface ProviderFleet {

    /** A short name stored with every offering ("local", "sagemaker"). */
    String name();

    String defaultRegion();

    Set<String> regions();

    /** On-demand capacity as the provider declares it at startup; a declared type's total is never read. */
    List<FleetOffering> fleet();

    /**
     * How often the account's limits are read ({@link #readLimits()}); empty when the provider has none to read
     * and every offering is declared (the local provider).
     */
    default Optional<Duration> limitRefreshInterval() {
        return Optional.empty();
    }

    /** The account's limits in every served region it could read; never throws for one region that fails. */
    default LimitReading readLimits() {
        return LimitReading.none();
    }
}
