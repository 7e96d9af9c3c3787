package io.spillover.catalog;

import java.util.Comparator;
import java.util.List;

/**
 * Counts of other instance types that give at least the same total as a given entry (SPEC §3.6): the same
 * number of accelerators, or the same accelerator memory. Counts round up where totals do not divide.
 */
public final class Equivalents {

    public enum Basis { ACCELERATORS, ACCELERATOR_MEMORY }

    /**
     * One suggestion.
     *
     * @param total what {@code instanceCount} instances give, on the basis asked for
     * @param exact whether the total equals the original's, not more
     */
    public record Suggestion(String instanceType, int instanceCount, int total, boolean exact) {
    }

    private final Catalog catalog;

    public Equivalents(Catalog catalog) {
        this.catalog = catalog;
    }

    /**
     * @param kind only types valid for this kind of job; null for any
     */
    public List<Suggestion> of(InstanceType type, int count, Basis basis, JobKind kind) {
        int target = count * perInstance(type, basis);
        if (target == 0) {
            return List.of();
        }
        return catalog.all().stream()
                .filter(other -> !other.name().equals(type.name()))
                .filter(other -> perInstance(other, basis) > 0)
                .filter(other -> kind == null || other.suits(kind))
                .map(other -> {
                    int each = perInstance(other, basis);
                    int needed = (target + each - 1) / each;
                    return new Suggestion(other.name(), needed, needed * each, needed * each == target);
                })
                // The same kind of accelerator first (a GPU job rarely runs on Trainium as it is), then the
                // closest total, then the fewest instances.
                .sorted(Comparator.comparing((Suggestion s) -> catalog.get(s.instanceType()).acceleratorKind()
                                != type.acceleratorKind())
                        .thenComparingInt(s -> s.total() - target)
                        .thenComparingInt(Suggestion::instanceCount)
                        .thenComparing(Suggestion::instanceType))
                .toList();
    }

    static int perInstance(InstanceType type, Basis basis) {
        return basis == Basis.ACCELERATORS ? type.acceleratorCount() : type.totalAcceleratorMemoryGiB();
    }
}
