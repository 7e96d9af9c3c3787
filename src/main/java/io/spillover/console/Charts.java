package io.spillover.console;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/** Small bar charts drawn as SVG by the templates; no chart library needed. */
public final class Charts {

    static final int WIDTH = 600;
    static final int HEIGHT = 160;
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);

    /** One bar: its label, value, and place in the drawing. */
    public record Bar(String label, long value, int x, int y, int width, int height) {
    }

    /** A chart: its bars and the largest value, for the axis. */
    public record BarChart(String title, List<Bar> bars, long max, String unit) {

        public boolean empty() {
            return bars.stream().allMatch(b -> b.value() == 0);
        }
    }

    private Charts() {
    }

    static BarChart bars(String title, List<String> labels, List<Long> values, String unit) {
        long max = Math.max(1, values.stream().mapToLong(Long::longValue).max().orElse(1));
        int slot = WIDTH / Math.max(1, values.size());
        var bars = new ArrayList<Bar>();
        for (int i = 0; i < values.size(); i++) {
            int height = (int) Math.round((double) values.get(i) / max * (HEIGHT - 20));
            bars.add(new Bar(labels.get(i), values.get(i), i * slot + 2, HEIGHT - 20 - height, Math.max(1, slot - 4),
                    height));
        }
        return new BarChart(title, bars, max, unit);
    }

    /** Wait times in buckets: under 1 s, 10 s, 1 min, 10 min, 1 h, and longer. */
    static BarChart waitHistogram(String title, List<Long> waits) {
        long[] bounds = {1, 10, 60, 600, 3600, Long.MAX_VALUE};
        String[] labels = {"<1s", "<10s", "<1m", "<10m", "<1h", "≥1h"};
        long[] counts = new long[bounds.length];
        for (long wait : waits) {
            for (int i = 0; i < bounds.length; i++) {
                if (wait < bounds[i]) {
                    counts[i]++;
                    break;
                }
            }
        }
        var values = new ArrayList<Long>();
        for (long count : counts) {
            values.add(count);
        }
        return bars(title, List.of(labels), values, "jobs");
    }

    static String clock(java.time.Instant at) {
        return CLOCK.format(at);
    }
}
