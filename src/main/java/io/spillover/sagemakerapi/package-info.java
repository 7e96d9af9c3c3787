/**
 * SageMaker's own API for training and processing jobs (AWS JSON 1.1 under {@code /sagemaker}, SigV4 with the access
 * keys of teams' tokens), so unchanged boto3, AWS CLI and AWS SDK code reaches Spillover's jobs with an endpoint
 * override.
 * <p>
 * Every call becomes one of the jobs module's own submissions, reads or changes, under the same checks and audit as
 * the REST API; the security module issues the access keys and counts failed signatures.
 */
@ApplicationModule(allowedDependencies = {
        "audit", "catalog", "jobs", "placement", "plans", "providers", "security", "shared", "system"})
package io.spillover.sagemakerapi;

import org.springframework.modulith.ApplicationModule;
