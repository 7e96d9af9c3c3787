package io.spillover.placement;

import java.util.HashSet;
import java.util.List;

/**
 * An ordered list of 1 to {@value #MAX_ENTRIES} acceptable entries, first choice first. Built by
 * {@link SubmissionRules}, which reports every broken rule at once; the constructor only guards the
 * invariants.
 */
public record PreferenceList(List<PreferenceEntry> entries) {

    public static final int MAX_ENTRIES = 5;

    public PreferenceList {
        entries = List.copyOf(entries);
        if (entries.isEmpty() || entries.size() > MAX_ENTRIES) {
            throw new IllegalArgumentException("a preference list has 1 to " + MAX_ENTRIES + " entries");
        }
        var seen = new HashSet<List<String>>();
        for (PreferenceEntry entry : entries) {
            if (!seen.add(List.of(entry.instanceType(), entry.region()))) {
                throw new IllegalArgumentException(entry.instanceType() + " in " + entry.region() + " appears twice");
            }
        }
    }

    public PreferenceEntry get(int index) {
        return entries.get(index);
    }

    public int size() {
        return entries.size();
    }
}
