package io.spillover.placement;

/**
 * What one evaluation found for one entry: whether it fits, and why or why not, in words a user reads.
 *
 * @param source {@code on-demand} or {@code plan:<name>}
 */
public record EntryVerdict(int index, String instanceType, int instanceCount, String region, String source,
                           boolean fits, String reason) {

    static EntryVerdict of(int index, PreferenceEntry entry, boolean fits, String reason) {
        return new EntryVerdict(index, entry.instanceType(), entry.instanceCount(), entry.region(),
                entry.offering().source(), fits, reason);
    }
}
