package io.spillover.estimates;

import io.spillover.placement.OfferingKey;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which offerings' queues can move each other's estimates, as far as the estimator has seen: a job that lists several
 * links them (it may start on either, and a change on one moves it, and so the jobs behind it on the other), and so
 * do the offerings of one instance type (a team's quota is per type). Under fair share every start changes every
 * team's standing, so all offerings are one group. Offerings are taken by type and region, as the queue's windows
 * are read. Links are only added: one that no longer holds costs work, never a missed change, until the next full
 * estimation starts the groups anew.
 */
final class OfferingGroups {

    private final boolean one;
    private final Map<OfferingKey, OfferingKey> parent = new HashMap<>();
    private final Map<String, OfferingKey> byType = new HashMap<>();

    /** @param one every offering in one group (fair share) */
    OfferingGroups(boolean one) {
        this.one = one;
    }

    /** An offering by type and region, as groups and windows take it. */
    static OfferingKey place(OfferingKey offering) {
        return offering.source().equals(OfferingKey.ON_DEMAND) ? offering
                : OfferingKey.onDemand(offering.region(), offering.instanceType());
    }

    /** The offerings one job lists are one group from now on. */
    void link(Collection<OfferingKey> offerings) {
        OfferingKey first = null;
        for (OfferingKey offering : offerings) {
            OfferingKey place = add(place(offering));
            if (first == null) {
                first = place;
            } else {
                union(first, place);
            }
        }
    }

    /** These offerings and every offering in a group with one of them. */
    Set<OfferingKey> closure(Collection<OfferingKey> offerings) {
        var roots = new HashSet<OfferingKey>();
        var closed = new HashSet<OfferingKey>();
        for (OfferingKey offering : offerings) {
            OfferingKey place = place(offering);
            closed.add(place);
            if (parent.containsKey(place)) {
                roots.add(root(place));
            }
        }
        for (OfferingKey known : parent.keySet()) {
            if (one || roots.contains(root(known))) {
                closed.add(known);
            }
        }
        return closed;
    }

    private OfferingKey add(OfferingKey place) {
        if (!parent.containsKey(place)) {
            parent.put(place, place);
            OfferingKey sameType = byType.putIfAbsent(place.instanceType(), place);
            if (sameType != null) {
                union(sameType, place);
            }
        }
        return place;
    }

    private OfferingKey root(OfferingKey place) {
        OfferingKey root = place;
        while (!parent.get(root).equals(root)) {
            root = parent.get(root);
        }
        OfferingKey at = place;
        while (!at.equals(root)) {
            OfferingKey next = parent.get(at);
            parent.put(at, root);
            at = next;
        }
        return root;
    }

    private void union(OfferingKey a, OfferingKey b) {
        OfferingKey ra = root(a);
        OfferingKey rb = root(b);
        if (!ra.equals(rb)) {
            parent.put(rb, ra);
        }
    }
}
