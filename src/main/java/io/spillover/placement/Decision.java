package io.spillover.placement;

import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * The outcome of evaluating one job: the entry selected (at most one: the first that fits) and a verdict for
 * every entry of its list.
 *
 * @param borrowed whether the selection goes beyond the team's guarantee (SPEC §8.1): the service records it on the
 *                 placement, and a reclaim may take it back (a preemptible job) or waits for its end (a job whose
 *                 maximum run time is within the borrow horizon). The selected entry's reason says so in words
 */
public record Decision(Outcome outcome, List<EntryVerdict> entries, boolean borrowed) {

    public enum Outcome {
        /** An entry fits; the job starts there. */
        SELECTED,
        /** No entry fits now; the job waits. */
        NOTHING_FITS,
        /** The job was not evaluated because a job ahead of it in a strict-FIFO queue waits. */
        HELD_BACK
    }

    public Decision {
        entries = List.copyOf(entries);
        if (borrowed && outcome != Outcome.SELECTED) {
            throw new IllegalArgumentException("only a selection can borrow");
        }
        long fitting = entries.stream().filter(EntryVerdict::fits).count();
        if (outcome == Outcome.SELECTED && fitting == 0) {
            throw new IllegalArgumentException("a selection needs an entry that fits");
        }
        if (outcome != Outcome.SELECTED && fitting > 0) {
            throw new IllegalArgumentException(outcome + " cannot have an entry that fits");
        }
    }

    /** A decision within the team's guarantee. */
    public Decision(Outcome outcome, List<EntryVerdict> entries) {
        this(outcome, entries, false);
    }

    /** Every entry held back for the same reason. */
    public static Decision heldBack(PreferenceList preferences, String reason) {
        return new Decision(Outcome.HELD_BACK, IntStream.range(0, preferences.size())
                .mapToObj(i -> EntryVerdict.of(i, preferences.get(i), false, reason))
                .toList());
    }

    /** The selected entry: the first one that fits. */
    public Optional<EntryVerdict> selected() {
        return outcome == Outcome.SELECTED
                ? entries.stream().filter(EntryVerdict::fits).findFirst()
                : Optional.empty();
    }

    public boolean isSelected() {
        return outcome == Outcome.SELECTED;
    }
}
