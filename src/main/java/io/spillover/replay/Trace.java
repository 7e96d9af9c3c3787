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

    /** Reads the trace from a stream the caller opened (and closes: this closes it when done). */
    public static List<TraceJob> read(Reader source) {
        try (var reader = new BufferedReader(source)) {
            String header = reader.readLine();
            if (header == null) {
                throw new IllegalArgumentException("the trace is empty");
            }
            Map<String, Integer> at = columns(fields(header));
            var jobs = new ArrayList<TraceJob>();
            String line;
            int number = 1;
            while ((line = reader.readLine()) != null) {
                number++;
                if (!line.isBlank()) {
                    jobs.add(parse(fields(line), at, number));
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
            throw new IllegalArgumentException("the trace lacks the column(s) " + missing + "; it needs " + COLUMNS
                    + " (job_type optional; one " + ONE_DURATION + " column may stand for the three durations)");
        }
        return at;
    }

    private static TraceJob parse(List<String> f, Map<String, Integer> at, int line) {
        try {
            return new TraceJob(f.get(at.get("job_id")), f.get(at.get("team")), seconds(f.get(at.get("submit_time_s"))),
                    Integer.parseInt(f.get(at.get("gpus")).strip()),
                    at.containsKey("job_type") ? f.get(at.get("job_type")) : "",
                    duration(f, at, Generation.K80), duration(f, at, Generation.P100), duration(f, at, Generation.V100));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("trace line " + line + ": " + e.getMessage(), e);
        }
    }

    /** The generation's own column, else the trace's one duration. */
    private static long duration(List<String> f, Map<String, Integer> at, Generation generation) {
        Integer column = at.get(generation.column());
        return seconds(f.get(column != null ? column : at.get(ONE_DURATION)));
    }

    /** Whole seconds; a fractional time is rounded up, so no job runs for zero seconds. */
    private static long seconds(String value) {
        return (long) Math.ceil(Double.parseDouble(value.strip()));
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
