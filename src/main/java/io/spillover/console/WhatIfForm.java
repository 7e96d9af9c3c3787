package io.spillover.console;

import io.spillover.shared.InvalidRequestException;
import io.spillover.shared.Violation;
import io.spillover.whatif.Configuration;
import io.spillover.whatif.Edit;
import io.spillover.whatif.WhatIfRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import org.springframework.web.multipart.MultipartFile;

/**
 * The what-if form as a request: the window or the uploaded trace, and one edit for each setting whose value differs
 * from the live configuration's. The page's script sends only the settings changed (a multipart form may have only
 * so many parts, {@code server.tomcat.max-part-count}); without it every setting comes, and those equal to the live
 * value are no edit. Knows which input each edit came from, so that an edit's errors show beside it.
 */
final class WhatIfForm {

    static final String CAPACITY = "capacity|";
    static final String REMOVE = "remove|";
    static final String WEIGHT = "weight|";
    static final String LIMITS = "limits|";
    static final String ACCELERATORS = "maxAccelerators|";
    static final String JOBS = "maxConcurrentJobs|";
    static final List<String> QUEUE = List.of("precedence", "fallbackAfterSeconds", "fairShare", "shareDecaySeconds",
            "shortestFirst", "holdAfterSeconds", "holdAfterRun", "precedenceLapse", "firstFit");

    /** The request, and for each of its edits the input it came from. */
    record Built(WhatIfRequest request, List<String> inputs) {

        /** Each violation under the input it is about: the window, the trace, an edit's input, or the form. */
        Map<String, String> errors(List<Violation> violations) {
            var errors = new HashMap<String, String>();
            for (Violation v : violations) {
                errors.merge(inputOf(v.field()), v.message(), (a, b) -> a + "; " + b);
            }
            return errors;
        }

        private String inputOf(String field) {
            if (field.startsWith("input.trace")) {
                return "trace";
            }
            if (field.startsWith("input")) {
                return "window";
            }
            if (field.startsWith("edits[")) {
                int end = field.indexOf(']');
                int index = Integer.parseInt(field.substring(6, end));
                if (index < inputs.size()) {
                    return inputs.get(index);
                }
            }
            return Forms.WHOLE;
        }
    }

    private WhatIfForm() {
    }

    /** @param live the form's values for the live configuration ({@link #shown}) */
    static Built read(Map<String, String> values, MultipartFile trace, Map<String, String> live) {
        var edits = new ArrayList<Edit>();
        var inputs = new ArrayList<String>();
        WhatIfRequest.Input input = "trace".equals(values.get("source")) ? trace(trace) : window(values);
        values.forEach((name, value) -> {
            if (name.startsWith(CAPACITY) && changed(values, live, name)) {
                String[] key = name.substring(CAPACITY.length()).split("\\|", 3);
                if (key.length == 3) {
                    edits.add(new Edit.OfferingCapacity(key[0], key[1], key[2], number(value)));
                    inputs.add(name);
                }
            } else if (name.startsWith(REMOVE) && !value.isBlank()) {
                edits.add(new Edit.RemovePlan(name.substring(REMOVE.length())));
                inputs.add(name);
            }
        });
        if (!blank(values.get("addPlanName"))) {
            edits.add(new Edit.AddPlan(values.get("addPlanName").strip(), blankToNull(values.get("addPlanType")),
                    blankToNull(values.get("addPlanRegion")), number(values.get("addPlanInstances")),
                    Arrays.stream(values.getOrDefault("addPlanTeams", "").split(",")).map(String::strip)
                            .filter(t -> !t.isEmpty()).toList()));
            inputs.add("addPlan");
        }
        teams(values, live, edits, inputs);
        queue(values, live, edits, inputs);
        return new Built(new WhatIfRequest(input, edits), inputs);
    }

    /** The teams any of whose settings came: the script sends only the changed ones. */
    private static void teams(Map<String, String> values, Map<String, String> live, List<Edit> edits,
                              List<String> inputs) {
        var teams = new java.util.LinkedHashSet<String>();
        for (String name : values.keySet()) {
            for (String prefix : List.of(WEIGHT, LIMITS, ACCELERATORS, JOBS)) {
                if (name.startsWith(prefix)) {
                    teams.add(name.substring(prefix.length()));
                }
            }
        }
        for (String team : teams) {
            String name = WEIGHT + team;
            Integer weight = changed(values, live, name) ? number(values.get(name)) : null;
            Integer accelerators = changed(values, live, ACCELERATORS + team) ? cap(values.get(ACCELERATORS + team))
                    : null;
            Integer jobs = changed(values, live, JOBS + team) ? cap(values.get(JOBS + team)) : null;
            Map<String, Integer> limits = null;
            if (changed(values, live, LIMITS + team)) {
                Map<String, Integer> was = limits(live.getOrDefault(LIMITS + team, ""));
                Map<String, Integer> now = limits(values.getOrDefault(LIMITS + team, ""));
                limits = new TreeMap<>();
                for (Map.Entry<String, Integer> limit : now.entrySet()) {
                    if (!Objects.equals(was.get(limit.getKey()), limit.getValue())) {
                        limits.put(limit.getKey(), limit.getValue());
                    }
                }
                for (String type : was.keySet()) {
                    if (!now.containsKey(type)) {
                        limits.put(type, 0);
                    }
                }
                if (limits.isEmpty()) {
                    limits = null;
                }
            }
            if (weight != null || accelerators != null || jobs != null || limits != null) {
                edits.add(new Edit.Team(team, weight, limits, accelerators, jobs));
                inputs.add(name);
            }
        }
    }

    private static void queue(Map<String, String> values, Map<String, String> live, List<Edit> edits,
                              List<String> inputs) {
        var changed = new LinkedHashMap<String, String>();
        for (String setting : QUEUE) {
            if (values.containsKey("queue." + setting) && changed(values, live, "queue." + setting)) {
                changed.put(setting, values.get("queue." + setting).strip());
            }
        }
        if (changed.isEmpty()) {
            return;
        }
        String holdAfter = changed.get("holdAfterSeconds");
        edits.add(new Edit.Queue(flag(changed.get("precedence")), seconds(changed.get("fallbackAfterSeconds")),
                flag(changed.get("fairShare")), seconds(changed.get("shareDecaySeconds")),
                flag(changed.get("shortestFirst")),
                holdAfter == null ? null : holdAfter.isEmpty() ? Boolean.FALSE : Boolean.TRUE,
                holdAfter == null || holdAfter.isEmpty() ? null : seconds(holdAfter), flag(changed.get("firstFit")),
                ratio(changed.get("precedenceLapse")), flag(changed.get("holdAfterRun"))));
        inputs.add("queue");
    }

    private static WhatIfRequest.Input window(Map<String, String> values) {
        return new WhatIfRequest.Input(instant(values.get("from"), "input.from"), instant(values.get("to"), "input.to"),
                null, null);
    }

    private static WhatIfRequest.Input trace(MultipartFile file) {
        if (file == null || file.isEmpty()) {
            throw new InvalidRequestException("input.trace", "choose a trace file (CSV) to upload");
        }
        try {
            return new WhatIfRequest.Input(null, null, new String(file.getBytes(), StandardCharsets.UTF_8),
                    file.getOriginalFilename());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether the input came with another value than the live configuration's. */
    private static boolean changed(Map<String, String> values, Map<String, String> live, String name) {
        String now = values.get(name);
        String was = live.get(name);
        return now != null && !now.strip().equals(was == null ? "" : was.strip());
    }

    /** {@code type=count} per line, as the teams page writes quotas; an unreadable count stands as -1 (refused). */
    static Map<String, Integer> limits(String text) {
        return new TreeMap<>(AdminPages.parseLimits(text));
    }

    private static Instant instant(String text, String field) {
        if (blank(text)) {
            return null;
        }
        try {
            return Instant.parse(text.strip());
        } catch (DateTimeParseException e) {
            throw new InvalidRequestException(field, "must be an ISO-8601 instant such as 2026-12-02T10:00:00Z");
        }
    }

    /** A whole number; anything else stands as -1, which the service refuses naming the edit's field. */
    private static Integer number(String text) {
        return parsed(text, Integer::valueOf, -1);
    }

    /** A cap: blank stands for no change (a cap cannot be lifted here), else a number as {@link #number}. */
    private static Integer cap(String text) {
        return blank(text) ? null : number(text);
    }

    private static Long seconds(String text) {
        return parsed(text, Long::valueOf, -1L);
    }

    /** A response ratio; an unreadable one stands as -1, refused as {@link #number} is. */
    private static Double ratio(String text) {
        return parsed(text, Double::valueOf, -1.0);
    }

    /** Null for a blank input, else the input read, or {@code unreadable} (a value the service refuses). */
    private static <T> T parsed(String text, Function<String, T> read, T unreadable) {
        if (blank(text)) {
            return null;
        }
        try {
            return read.apply(text.strip());
        } catch (NumberFormatException e) {
            return unreadable;
        }
    }

    private static Boolean flag(String text) {
        return text == null ? null : Boolean.valueOf("on".equals(text) || "true".equals(text));
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }

    private static String blankToNull(String text) {
        return blank(text) ? null : text.strip();
    }

    /** The form's values for the live configuration, by input name: what an input holds until it is changed. */
    static Map<String, String> shown(Configuration current) {
        var shown = new LinkedHashMap<String, String>();
        current.offerings().forEach(o -> shown.put(CAPACITY + o.region() + "|" + o.instanceType() + "|" + o.source(),
                String.valueOf(o.instances())));
        current.teams().forEach(t -> {
            shown.put(WEIGHT + t.name(), String.valueOf(t.weight()));
            shown.put(LIMITS + t.name(), limitsText(t.instanceLimits()));
            shown.put(ACCELERATORS + t.name(), t.maxAccelerators() == null ? "" : t.maxAccelerators().toString());
            shown.put(JOBS + t.name(), t.maxConcurrentJobs() == null ? "" : t.maxConcurrentJobs().toString());
        });
        Configuration.Queue queue = current.queue();
        shown.put("queue.precedence", queue.precedence() ? "on" : "off");
        shown.put("queue.fallbackAfterSeconds", String.valueOf(queue.fallbackAfterSeconds()));
        shown.put("queue.fairShare", queue.fairShare() ? "on" : "off");
        shown.put("queue.shareDecaySeconds", String.valueOf(queue.shareDecaySeconds()));
        shown.put("queue.shortestFirst", queue.shortestFirst() ? "on" : "off");
        shown.put("queue.holdAfterSeconds", queue.holdAfterSeconds() == null ? "" : queue.holdAfterSeconds().toString());
        shown.put("queue.precedenceLapse", java.math.BigDecimal.valueOf(queue.precedenceLapse()).stripTrailingZeros()
                .toPlainString());
        shown.put("queue.holdAfterRun", queue.holdAfterRun() ? "on" : "off");
        shown.put("queue.firstFit", "off");
        return shown;
    }

    private static String limitsText(Map<String, Integer> limits) {
        var lines = new ArrayList<String>();
        new TreeMap<>(limits).forEach((type, limit) -> {
            if (limit > 0) {
                lines.add(type + "=" + limit);
            }
        });
        return String.join("\n", lines);
    }
}
