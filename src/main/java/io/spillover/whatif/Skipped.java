package io.spillover.whatif;

import java.util.List;

/**
 * Jobs of the input a what-if run did not replay, and why: nothing is left out silently.
 *
 * @param examples up to five of them, by name
 */
public record Skipped(String reason, int jobs, List<String> examples) {

    static final int EXAMPLES = 5;

    public Skipped {
        examples = List.copyOf(examples);
    }
}
