/**
 * The SageMaker provider: runs placed jobs as SageMaker AI training and processing jobs through the AWS SDK,
 * watches them with few calls, turns capacity refusals into fall-through, and keeps training plans in step with AWS.
 */
package io.spillover.providers.sagemaker;
