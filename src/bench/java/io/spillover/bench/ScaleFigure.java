package io.spillover.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.List;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogarithmicAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The service benchmark's scale figure: wake-up and release latency, and the safety sweep's time, against the
 * number of pending jobs (log scale), with one commit of the same run as the floor. A flat line is the claim.
 */
final class ScaleFigure {

    private ScaleFigure() {
    }

    static void write(Path png, List<ServiceBench.Level> levels, double oneCommitMs) throws IOException {
        System.setProperty("java.awt.headless", "true");
        var wakeP50 = new XYSeries("wake-up p50 (release → next job STARTING)");
        var wakeP99 = new XYSeries("wake-up p99");
        var release = new XYSeries("one release of an offering a job waits on");
        var crowded = new XYSeries("release of the offering every job waits on, p99 right after the burst");
        var sweep = new XYSeries("safety sweep, mean");
        var commit = new XYSeries("one commit of the database (same run)");
        for (ServiceBench.Level level : levels) {
            wakeP50.add(level.pending(), Math.max(0.1, level.wakeUp().serverMs().p50()));
            wakeP99.add(level.pending(), Math.max(0.1, level.wakeUp().serverMs().p99()));
            release.add(level.pending(), Math.max(0.1, level.release().releaseToStartingMs()));
            crowded.add(level.pending(), Math.max(0.1, level.crowdedAfterBurst().releaseToStartingMs().p99()));
            if (level.wakeUp().sweeps().count() > 0) {
                sweep.add(level.pending(), Math.max(0.1, level.wakeUp().sweeps().meanMs()));
            }
            commit.add(level.pending(), oneCommitMs);
        }
        var data = new XYSeriesCollection();
        for (XYSeries series : List.of(wakeP50, wakeP99, release, crowded, sweep, commit)) {
            data.addSeries(series);
        }
        JFreeChart chart = ChartFactory.createXYLineChart("Spillover: latency against queue length", "pending jobs",
                "milliseconds", data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setDomainAxis(logAxis("pending jobs (log scale)"));
        plot.setRangeAxis(logAxis("milliseconds (log scale)"));
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        var lines = new XYLineAndShapeRenderer(true, true);
        Color[] colors = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e),
                new Color(0x9467bd), Color.GRAY};
        for (int i = 0; i < colors.length; i++) {
            lines.setSeriesPaint(i, colors[i]);
            lines.setSeriesStroke(i, new BasicStroke(2f));
        }
        lines.setSeriesStroke(5, new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                new float[] {6f, 4f}, 0f));
        plot.setRenderer(lines);
        Files.createDirectories(png.toAbsolutePath().getParent());
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 900, 540);
    }

    /** Powers of ten labelled as plain numbers (0.1, 1, 10, 1,000), not as exponents. */
    private static LogarithmicAxis logAxis(String label) {
        var axis = new LogarithmicAxis(label);
        axis.setStrictValuesFlag(false);
        axis.setExpTickLabelsFlag(false);
        axis.setLog10TickLabelsFlag(false);
        axis.setNumberFormatOverride(new DecimalFormat("#,##0.##"));
        return axis;
    }
}
