package io.spillover.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Reads a trace CSV: any file with the columns of {@code shared/traces/philly-gavel} replays, in any order
 * and with extra columns ignored. A trace measured on one kind of GPU may give a single {@code duration_s}
 * column instead of one per generation (each type's speed-up then applies to it alike), and {@code job_type}
 * may be left out. Fields may be double-quoted (a model name could hold a comma).
 */
public final class Trace {

    static final List<String> COLUMNS = List.of("job_id", "team", "submit_time_s", "gpus", "job_type",
            Generation.K80.column(), Generation.P100.column(), Generation.V100.column());
    static final List<String> REQUIRED = List.of("job_id", "team", "submit_time_s", "gpus");
    static final String ONE_DURATION = "duration_s";

    private Trace() {
    }

    /**
     * Reads the trace from a stream the caller opened (and closes: this closes it when done).
     *
     * @throws TraceException naming the line, and the column where one is at fault, of the first thing wrong
     */
    public static List<TraceJob> read(Reader source) {
        try (var reader = new BufferedReader(source)) {
            String header = reader.readLine();
            if (header == null || header.isBlank()) {
                throw new TraceException(1, null, "the trace is empty; its first line names the columns");
            }
            List<String> names = fields(header);
            Map<String, Integer> at = columns(names);
            var jobs = new ArrayList<TraceJob>();
            var lines = new HashMap<String, Integer>();
            String line;
            int number = 1;
            while ((line = reader.readLine()) != null) {
                number++;
                if (!line.isBlank()) {
                    TraceJob job = parse(fields(line), names.size(), at, number);
                    Integer first = lines.putIfAbsent(job.id(), number);
                    if (first != null) {
                        throw new TraceException(number, "job_id", "job " + job.id() + " is on line " + first
                                + " already");
                    }
                    jobs.add(job);
                }
            }
            return jobs;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The trace with each team's submissions moved later by one offset per team, drawn from the seed between 0
     * and {@code maxDays} days, in submission order again: the same jobs meeting each other at other times, a
     * trace the policies were not tuned on.
     */
    public static List<TraceJob> shiftTeams(List<TraceJob> trace, long seed, int maxDays) {
        var offsets = new HashMap<String, Long>();
        var shifted = new ArrayList<TraceJob>(trace.size());
        for (TraceJob job : trace) {
            long offset = offsets.computeIfAbsent(job.team(), team -> new SplittableRandom(
                    seed * 1_000_003L + team.hashCode()).nextLong(maxDays * 86_400L + 1));
            shifted.add(new TraceJob(job.id(), job.team(), job.submitSeconds() + offset, job.gpus(), job.jobType(),
                    job.k80Seconds(), job.p100Seconds(), job.v100Seconds()));
        }
        shifted.sort(Comparator.comparingLong(TraceJob::submitSeconds));
        return shifted;
    }

    private static Map<String, Integer> columns(List<String> header) {
        var at = new HashMap<String, Integer>();
        for (int i = 0; i < header.size(); i++) {
            at.put(header.get(i).strip(), i);
        }
        var missing = new ArrayList<>(REQUIRED.stream().filter(c -> !at.containsKey(c)).toList());
        List<String> generations = List.of(Generation.K80.column(), Generation.P100.column(), Generation.V100.column());
        if (!at.containsKey(ONE_DURATION)) {
            generations.stream().filter(c -> !at.containsKey(c)).forEach(missing::add);
        }
        if (!missing.isEmpty()) {
            throw new TraceException(1, null, "the trace lacks the column(s) " + missing + "; it needs " + COLUMNS
                    + " (job_type optional; one " + ONE_DURATION + " column may stand for the three durations)");
        }
        return at;
    }

    private static TraceJob parse(List<String> f, int columns, Map<String, Integer> at, int line) {
        if (f.size() != columns) {
            throw new TraceException(line, null, "has " + f.size() + " field(s), the header " + columns);
        }
        String id = f.get(at.get("job_id")).strip();
        String team = f.get(at.get("team")).strip();
        if (id.isEmpty()) {
            throw new TraceException(line, "job_id", "is empty");
        }
        if (team.isEmpty()) {
            throw new TraceException(line, "team", "is empty");
        }
        long submit = seconds(f, at, "submit_time_s", line, 0);
        String gpus = f.get(at.get("gpus")).strip();
        if (!gpus.matches("[0-9]{1,5}") || Integer.parseInt(gpus) < 1 || Integer.parseInt(gpus) > 10_000) {
            throw new TraceException(line, "gpus", "must be a whole number from 1 to 10000, not " + shown(gpus));
        }
        return new TraceJob(id, team, submit, Integer.parseInt(gpus), at.containsKey("job_type") ? f.get(at.get("job_type")) : "",
                duration(f, at, Generation.K80, line), duration(f, at, Generation.P100, line),
                duration(f, at, Generation.V100, line));
    }

    /** The generation's own column, else the trace's one duration. */
    private static long duration(List<String> f, Map<String, Integer> at, Generation generation, int line) {
        String column = at.containsKey(generation.column()) ? generation.column() : ONE_DURATION;
        return seconds(f, at, column, line, 1);
    }

    /**
     * Whole seconds; a fractional time is rounded up, so no job runs for zero seconds.
     *
     * @param least the smallest value the column may hold, after rounding
     */
    private static long seconds(List<String> f, Map<String, Integer> at, String column, int line, long least) {
        String value = f.get(at.get(column)).strip();
        double parsed;
        try {
            parsed = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new TraceException(line, column, "must be a number, not " + shown(value));
        }
        // within a century of seconds: the sums of a replay stay far from overflowing
        if (!(parsed >= 0) || parsed > 3.2e9) {
            throw new TraceException(line, column, "must be a number of seconds from 0 to 3200000000, not "
                    + shown(value));
        }
        long seconds = (long) Math.ceil(parsed);
        if (seconds < least) {
            throw new TraceException(line, column, "must be at least " + least + ", not " + shown(value));
        }
        return seconds;
    }

    private static String shown(String value) {
        String trimmed = value.strip();
        return trimmed.isEmpty() ? "nothing" : "\"" + (trimmed.length() > 40 ? trimmed.substring(0, 40) + "…" : trimmed)
                + "\"";
    }

    private static List<String> fields(String line) {
        var fields = new ArrayList<String>();
        var field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields;
    }
}
