package io.spillover.replay;

import java.util.Arrays;

/** The GPU generations a trace gives durations for, each named by its column's suffix. */
public enum Generation {
    K80("k80"), P100("p100"), V100("v100");

    private final String column;

    Generation(String column) {
        this.column = column;
    }

    /** The trace column holding run times on this generation: {@code duration_s_v100}. */
    public String column() {
        return "duration_s_" + column;
    }

    public static Generation named(String name) {
        return Arrays.stream(values()).filter(g -> g.column.equalsIgnoreCase(name) || g.name().equalsIgnoreCase(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown GPU generation " + name
                        + "; known: k80, p100, v100"));
    }
}
