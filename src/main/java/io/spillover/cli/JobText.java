package io.spillover.cli;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** The API's jobs, evaluations and profiles as lines a person reads; {@code --output json} shows them as they are. */
final class JobText {

    private JobText() {
    }

    /** {@code llama-ft-42 COMPLETED (COMPLETED) on entry 1: 4 × ml.p4d.24xlarge in us-east-1, on-demand}. */
    static String summary(JsonNode job) {
        var line = new StringBuilder(text(job, "name")).append(' ').append(text(job, "status"));
        String reason = text(job, "statusReason");
        if (!reason.isEmpty() && !reason.equals(text(job, "status"))) {
            line.append(" (").append(reason).append(')');
        }
        JsonNode selection = job.path("selection");
        if (selection.isObject()) {
            line.append(" on ").append(selection(selection));
        }
        return line.toString();
    }

    /**
     * A pending job's estimated start in one line: {@code most likely 2026-12-04T12:40:00Z (p10 …, p90 …) on entry
     * 1: 3 jobs ahead on ml.p4d.24xlarge; …}, and when it is past the job's deadline, that it would be stopped first.
     * Empty when the job is not pending; "not estimated yet" until the service has estimated it.
     */
    static String estimate(JsonNode job) {
        if (!"PENDING".equals(text(job, "status"))) {
            return "";
        }
        JsonNode estimate = job.path("estimatedStart");
        if (!estimate.isObject()) {
            return "not estimated yet";
        }
        String basis = text(estimate, "basis");
        if (text(estimate, "p50").isEmpty()) {
            return basis;
        }
        JsonNode entry = estimate.path("entry");
        return "most likely " + text(estimate, "p50") + " (p10 " + orNever(estimate, "p10") + ", p90 "
                + orNever(estimate, "p90") + ")" + (entry.isNumber() ? " on entry " + entry.asInt() : "") + ": "
                + basis + (estimate.path("pastDeadline").asBoolean() ? " — past its deadline: it would be stopped first"
                : "");
    }

    /** The estimate's median alone, for a table or a status line; "-" for none. */
    static String likelyStart(JsonNode estimate) {
        String p50 = estimate == null ? "" : text(estimate, "p50");
        return p50.isEmpty() ? "-" : p50 + (estimate.path("pastDeadline").asBoolean() ? " (past deadline)" : "");
    }

    private static String orNever(JsonNode estimate, String field) {
        String at = text(estimate, field);
        return at.isEmpty() ? "beyond the horizon" : at;
    }

    static String selection(JsonNode selection) {
        return "entry " + selection.path("index").asInt() + ": " + selection.path("instanceCount").asInt() + " × "
                + text(selection, "instanceType") + " in " + text(selection, "region") + ", " + text(selection, "source")
                + borrowed(selection);
    }

    /** {@code , 2 borrowed} when some of the selection's instances are other teams' idle quota; else nothing. */
    private static String borrowed(JsonNode selection) {
        int borrowed = selection.path("borrowedInstances").asInt(0);
        return borrowed > 0 ? ", " + borrowed + " borrowed" : "";
    }

    /** Whether the job may be preempted, and how often it was. */
    static String preemption(JsonNode job) {
        int preemptions = job.path("preemptions").asInt(0);
        String times = preemptions == 1 ? "once" : preemptions + " times";
        return job.path("preemptible").asBoolean() ? "preemptible (resumes from its checkpoint), preempted " + times
                : "not preemptible" + (preemptions > 0 ? ", preempted " + times : "");
    }

    static List<String> describe(JsonNode job) {
        var lines = new ArrayList<String>();
        lines.add(field("job", text(job, "name") + " (team " + text(job, "team") + ", " + text(job, "kind") + ")"));
        String message = text(job, "statusMessage");
        lines.add(field("status", text(job, "status") + (text(job, "statusReason").isEmpty() ? ""
                : " (" + text(job, "statusReason") + ")") + (message.isEmpty() ? "" : ": " + message)));
        if (job.path("selection").isObject()) {
            lines.add(field("selection", selection(job.get("selection"))));
        }
        String estimate = estimate(job);
        if (!estimate.isEmpty()) {
            lines.add(field("estimated", estimate));
        }
        if (job.path("profile").isObject()) {
            lines.add(field("profile", text(job.get("profile"), "name") + " v" + job.get("profile").path("version").asInt()));
        }
        JsonNode preferences = job.path("instancePreferences");
        for (int i = 0; i < preferences.size(); i++) {
            JsonNode entry = preferences.get(i);
            String plan = text(entry, "trainingPlan");
            lines.add(field(i == 0 ? "preferences" : "", i + ": " + entry.path("instanceCount").asInt() + " × "
                    + text(entry, "instanceType") + " in " + text(entry, "region") + (plan.isEmpty() ? "" : ", plan " + plan)));
        }
        lines.add(field("attempt", String.valueOf(job.path("attempt").asInt())));
        lines.add(field("preemption", preemption(job)));
        if (job.path("expectedRuntimeSeconds").isNumber()) {
            lines.add(field("expected run", job.get("expectedRuntimeSeconds").asLong() + " s (its user's hint)"));
        }
        for (String time : List.of("createdAt", "startedAt", "endedAt", "pendingDeadline")) {
            if (!text(job, time).isEmpty()) {
                lines.add(field(time.replace("At", "").replace("pendingDeadline", "pending until"), text(job, time)));
            }
        }
        JsonNode transitions = job.path("transitions");
        if (!transitions.isEmpty()) {
            lines.add("transitions");
            transitions.forEach(t -> lines.add("  " + transition(t)));
        }
        return lines;
    }

    static String transition(JsonNode transition) {
        String from = text(transition, "from");
        String message = text(transition, "message");
        return text(transition, "at") + "  " + (from.isEmpty() ? "" : from + " → ") + text(transition, "to")
                + " (" + text(transition, "reason") + ")" + (message.isEmpty() ? "" : ": " + message);
    }

    /** The header of an evaluation or explain answer, then one line per entry with its reason. */
    static List<String> evaluation(JsonNode evaluation) {
        return evaluation(evaluation, "evaluation");
    }

    /** An explain answer: the same, headed by what it is. */
    static List<String> explained(JsonNode explained) {
        return evaluation(explained, "where it would go at");
    }

    private static List<String> evaluation(JsonNode evaluation, String heading) {
        var lines = new ArrayList<String>();
        String trigger = text(evaluation, "trigger");
        String outcome = switch (text(evaluation, "outcome")) {
            case "SELECTED" -> "entry " + evaluation.path("selectedIndex").asInt() + " fits";
            case "NOTHING_FITS" -> "no entry fits now";
            case "HELD_BACK" -> "held back: a job ahead of it in the team's strict-FIFO queue waits";
            default -> text(evaluation, "outcome");
        };
        int repeats = evaluation.path("repeats").asInt(0);
        lines.add(heading + " " + text(evaluation, "at") + (trigger.isEmpty() ? "" : " (" + trigger + ")") + ": "
                + outcome + (repeats > 0 ? " (the same " + repeats + " more times, last at "
                + text(evaluation, "lastRepeatedAt") + ")" : ""));
        evaluation.path("entries").forEach(e -> lines.add("  " + entry(e)));
        return lines;
    }

    static String entry(JsonNode entry) {
        return "entry " + entry.path("index").asInt() + " " + entry.path("instanceCount").asInt() + " × "
                + text(entry, "instanceType") + " in " + text(entry, "region") + ", " + text(entry, "source") + ": "
                + text(entry, "reason");
    }

    /** One line per job of a page, under a header. */
    static List<String> table(JsonNode page) {
        var rows = new ArrayList<List<String>>();
        rows.add(List.of("NAME", "STATUS", "REASON", "ON", "CREATED", "LIKELY START"));
        for (JsonNode job : page.path("items")) {
            JsonNode selection = job.path("selection");
            rows.add(List.of(text(job, "name"), text(job, "status"), text(job, "statusReason"),
                    selection.isObject() ? selection.path("instanceCount").asInt() + " × " + text(selection, "instanceType")
                            + " (entry " + selection.path("index").asInt() + borrowed(selection) + ")" : "-",
                    text(job, "createdAt"), likelyStart(job.path("estimatedStart"))));
        }
        List<String> lines = columns(rows);
        lines.add("page " + page.path("page").asInt() + " of " + Math.max(1, page.path("totalPages").asInt()) + ", "
                + page.path("totalItems").asLong() + " jobs");
        return lines;
    }

    static List<String> profiles(JsonNode profiles) {
        var rows = new ArrayList<List<String>>();
        rows.add(List.of("NAME", "VERSION", "ENTRIES", "SAVED"));
        for (JsonNode profile : profiles) {
            var entries = new ArrayList<String>();
            JsonNode definition = profile.path("definition");
            for (JsonNode entry : definition.path("instancePreferences")) {
                JsonNode count = entry.path("instanceCount").isMissingNode() || entry.path("instanceCount").isNull()
                        ? definition.path("instanceCount") : entry.path("instanceCount");
                entries.add((count.isNumber() ? count.asInt() + " × " : "") + text(entry, "instanceType"));
            }
            rows.add(List.of(text(profile, "name"), String.valueOf(profile.path("version").asInt()),
                    String.join(", else ", entries), text(profile, "savedAt") + " by " + text(profile, "savedBy")));
        }
        return columns(rows);
    }

    private static List<String> columns(List<List<String>> rows) {
        int[] widths = new int[rows.get(0).size()];
        rows.forEach(row -> {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        });
        var lines = new ArrayList<String>();
        for (List<String> row : rows) {
            var line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                line.append(i == row.size() - 1 ? row.get(i) : String.format("%-" + widths[i] + "s  ", row.get(i)));
            }
            lines.add(line.toString().stripTrailing());
        }
        return lines;
    }

    private static String field(String name, String value) {
        return String.format("%-13s %s", name, value);
    }

    static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isMissingNode() || value.isNull() ? "" : value.asString();
    }
}
