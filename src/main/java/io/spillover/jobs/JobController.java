package io.spillover.jobs;

import io.spillover.shared.InvalidRequestException;
import io.spillover.system.Access;
import io.swagger.v3.oas.annotations.Operation;
import java.net.URI;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

@RestController
@RequestMapping("/api/v1/teams/{team}")
class JobController {

    private final JobSubmissions submissions;
    private final JobQueries jobs;
    private final JobCommands commands;
    private final Explanations explanations;
    private final JobStreams streams;

    JobController(JobSubmissions submissions, JobQueries jobs, JobCommands commands, Explanations explanations,
                  JobStreams streams) {
        this.submissions = submissions;
        this.jobs = jobs;
        this.commands = commands;
        this.explanations = explanations;
        this.streams = streams;
    }

    /** 201 with the new job; 200 with the original when the client token was seen before. */
    @PostMapping("/jobs")
    @Access(Access.Level.MEMBER)
    ResponseEntity<JobView> submit(@PathVariable String team, @RequestBody JobRequest request) {
        JobSubmissions.Submitted submitted = submissions.submit(team, request);
        if (!submitted.created()) {
            return ResponseEntity.ok(submitted.job());
        }
        return ResponseEntity.created(URI.create("/api/v1/teams/" + team + "/jobs/" + submitted.job().name()))
                .body(submitted.job());
    }

    /** A pipeline's jobs, up to {@value JobSubmissions#MAX_BATCH}, submitted all or none. */
    record BatchRequest(List<JobRequest> jobs) {
    }

    /** Per item of the request, in its order: the job, and whether this call made it. */
    record BatchView(List<BatchItem> jobs) {
    }

    record BatchItem(boolean created, JobView job) {
    }

    /** 201 when any item made a job; 200 when every item's client token was seen before. */
    @PostMapping("/jobs:batch")
    @Access(Access.Level.MEMBER)
    ResponseEntity<BatchView> submitAll(@PathVariable String team, @RequestBody BatchRequest request) {
        List<JobSubmissions.Submitted> submitted = submissions.submitAll(team, request == null ? null : request.jobs());
        var view = new BatchView(submitted.stream().map(s -> new BatchItem(s.created(), s.job())).toList());
        return submitted.stream().anyMatch(JobSubmissions.Submitted::created)
                ? ResponseEntity.status(HttpStatus.CREATED).body(view) : ResponseEntity.ok(view);
    }

    @Operation(summary = "List the team's jobs, newest first",
            description = "Each pending job carries `estimatedStart` as `describe` does.")
    @GetMapping("/jobs")
    @Access(Access.Level.MEMBER)
    JobPage list(@PathVariable String team, @RequestParam(required = false) JobStatus status,
                 @RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "20") int size) {
        return jobs.list(team, status, page, size);
    }

    @Operation(summary = "Describe a job: status, reason, selection, timestamps, transitions and, while it waits, its"
            + " estimated start",
            description = "`estimatedStart` (PENDING jobs only): `p10`, `p50`, `p90` (when it starts in one future in"
                    + " ten, in half of them, in nine in ten), `entry` (the entry it starts on most often, 0 first),"
                    + " `basis` (why, in one line), `pastDeadline` (its median start is after its maximum pending time"
                    + " runs out) and `estimatedAt`. The quantiles are null when it starts within no future of the"
                    + " forecast's horizon (60 days); `estimatedStart` itself is null while the job is not PENDING and"
                    + " in the moment between its submission and the first estimate that includes it.")
    @GetMapping("/jobs/{job}")
    @Access(Access.Level.MEMBER)
    JobView describe(@PathVariable String team, @PathVariable String job) {
        return jobs.describe(team, job);
    }

    @GetMapping("/jobs/{job}/evaluations")
    @Access(Access.Level.MEMBER)
    List<EvaluationView> evaluations(@PathVariable String team, @PathVariable String job,
                                     @RequestParam(defaultValue = "50") int limit) {
        return jobs.evaluations(team, job, limit);
    }

    @GetMapping(value = "/jobs/{job}/logs", produces = MediaType.TEXT_PLAIN_VALUE)
    @Access(Access.Level.MEMBER)
    String logs(@PathVariable String team, @PathVariable String job) {
        return jobs.logs(team, job);
    }

    /**
     * The job's events as server-sent events: {@code transition} (id: the transition's log id), {@code evaluation}
     * and {@code estimate} while it waits, and {@code end} with the described job, after which the stream closes. A client that
     * reconnects sends {@code Last-Event-ID} and gets only the transitions after it.
     */
    @Operation(summary = "Follow a job's transitions as server-sent events until it ends",
            description = "Events: `transition` (id: the transition's log id; data: job, team, at, from, to, reason,"
                    + " message, attempt), `evaluation` (the latest placement evaluation while the job waits),"
                    + " `estimate` (its estimated start whenever it moves while the job waits: p10, p50, p90, entry,"
                    + " basis, pastDeadline, estimatedAt) and `end` (data: the described job), after which the stream"
                    + " closes. Reconnect with"
                    + " `Last-Event-ID` to get only what came after.")
    @GetMapping(value = "/jobs/{job}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Access(Access.Level.MEMBER)
    SseEmitter events(@PathVariable String team, @PathVariable String job,
                      @RequestHeader(value = "Last-Event-ID", required = false) String lastEventId) {
        long after = 0;
        if (lastEventId != null && !lastEventId.isBlank()) {
            try {
                after = Long.parseLong(lastEventId.trim());
            } catch (NumberFormatException e) {
                after = -1;
            }
            if (after < 0) {
                throw new InvalidRequestException("Last-Event-ID", "must be the id of an event this stream sent");
            }
        }
        return streams.open(jobs.describe(team, job), after);
    }

    @PostMapping("/jobs/{job}/stop")
    @Access(Access.Level.MEMBER)
    JobView stop(@PathVariable String team, @PathVariable String job) {
        return commands.stop(team, job);
    }

    @PostMapping("/placements/explain")
    @Access(Access.Level.MEMBER)
    ExplainView explain(@PathVariable String team, @RequestBody JobRequest request) {
        return explanations.explain(team, request);
    }
}
