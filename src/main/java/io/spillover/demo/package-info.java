/**
 * The demo: on the local provider, a platform admin's one click (or {@code spillover demo}) runs a small scripted
 * workload as the demo teams {@code vision} and {@code nlp} on the demo fleet, and says as it goes what each job
 * shows: a fallback, a job waiting for its first choice, a queue with estimated starts, a deadline.
 * <p>
 * It submits and stops jobs through the jobs module's services, as a pipeline would through the API, and keeps
 * nothing but its narration, in the memory of the instance that runs it.
 */
@ApplicationModule(allowedDependencies = {"catalog", "jobs", "placement", "providers", "security", "shared", "system",
        "tenancy"})
package io.spillover.demo;

import org.springframework.modulith.ApplicationModule;
