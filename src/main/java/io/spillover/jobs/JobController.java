package io.spillover.jobs;

import io.spillover.system.Access;
import java.net.URI;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/teams/{team}")
class JobController {

    private final JobSubmissions submissions;
    private final JobQueries jobs;
    private final JobCommands commands;
    private final Explanations explanations;

    JobController(JobSubmissions submissions, JobQueries jobs, JobCommands commands, Explanations explanations) {
        this.submissions = submissions;
        this.jobs = jobs;
        this.commands = commands;
        this.explanations = explanations;
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

    @GetMapping("/jobs")
    @Access(Access.Level.MEMBER)
    JobPage list(@PathVariable String team, @RequestParam(required = false) JobStatus status,
                 @RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "20") int size) {
        return jobs.list(team, status, page, size);
    }

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
