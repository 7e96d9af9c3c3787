// Drives Spillover's SageMaker-compatible endpoint with the AWS SDK for JavaScript v3, as unchanged user code would:
// only the endpoint and the credentials point at Spillover. SageMakerEndpointTest runs it with
//   node drive.mjs <scenario>   (SPILLOVER_ENDPOINT, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, JOB_NAME,
//                                FIRST_TYPE, SECOND_TYPE set)
// and reads the one JSON line it prints.
import {
  SageMakerClient, CreateTrainingJobCommand, DescribeTrainingJobCommand, CreateProcessingJobCommand,
  DescribeProcessingJobCommand, ListTrainingJobsCommand, waitUntilTrainingJobCompletedOrStopped,
  waitUntilProcessingJobCompletedOrStopped,
} from "@aws-sdk/client-sagemaker";

const env = process.env;
const scenario = process.argv[2];
const skew = scenario === "skewed" ? -20 * 60 * 1000 : 0;
const client = new SageMakerClient({
  endpoint: env.SPILLOVER_ENDPOINT,
  region: env.AWS_REGION,
  credentials: {accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY},
  systemClockOffset: skew,
  maxAttempts: 3,
});
const waiting = {client, minDelay: 1, maxDelay: 1, maxWaitTime: 120};
const name = env.JOB_NAME;
const role = "arn:aws:iam::111122223333:role/SpilloverJobs";
const image = "111122223333.dkr.ecr.us-east-1.amazonaws.com/train:1";

async function training() {
  const created = await client.send(new CreateTrainingJobCommand({
    TrainingJobName: name,
    RoleArn: role,
    AlgorithmSpecification: {TrainingImage: image, TrainingInputMode: "File",
      ContainerEntrypoint: ["sh", "-c"], ContainerArguments: ["sleep 2"]},
    OutputDataConfig: {S3OutputPath: "s3://bucket/out"},
    ResourceConfig: {
      InstancePreferences: [
        {InstanceType: env.FIRST_TYPE, InstanceCount: 1},
        {InstanceType: env.SECOND_TYPE, InstanceCount: 1},
      ],
      VolumeSizeInGB: 10,
    },
    StoppingCondition: {MaxRuntimeInSeconds: 600, MaxPendingTimeInSeconds: 7200},
    Tags: [{Key: "project", Value: "js"}],
  }));
  const inProgress = await client.send(new DescribeTrainingJobCommand({TrainingJobName: name}));
  const waited = await waitUntilTrainingJobCompletedOrStopped(waiting, {TrainingJobName: name});
  const done = await client.send(new DescribeTrainingJobCommand({TrainingJobName: name}));
  return {
    arn: created.TrainingJobArn,
    firstStatus: inProgress.TrainingJobStatus,
    waiter: waited.state,
    status: done.TrainingJobStatus,
    secondaryStatus: done.SecondaryStatus,
    selectedInstanceType: done.ResourceConfig.SelectedInstanceType,
    selectedInstanceCount: done.ResourceConfig.SelectedInstanceCount,
    preferences: done.ResourceConfig.InstancePreferences.map(p => p.InstanceType),
    transitions: done.SecondaryStatusTransitions.map(t => t.Status),
    messages: done.SecondaryStatusTransitions.map(t => t.StatusMessage),
    creationTimeIsDate: done.CreationTime instanceof Date,
    lastModified: done.LastModifiedTime.toISOString(),
  };
}

async function processing() {
  await client.send(new CreateProcessingJobCommand({
    ProcessingJobName: name,
    RoleArn: role,
    AppSpecification: {ImageUri: image, ContainerEntrypoint: ["sh", "-c", "sleep 2"]},
    ProcessingResources: {ClusterConfig: {
      InstancePreferences: [
        {InstanceType: env.FIRST_TYPE, InstanceCount: 1},
        {InstanceType: env.SECOND_TYPE, InstanceCount: 1},
      ],
      VolumeSizeInGB: 20,
    }},
  }));
  const waited = await waitUntilProcessingJobCompletedOrStopped(waiting, {ProcessingJobName: name});
  const done = await client.send(new DescribeProcessingJobCommand({ProcessingJobName: name}));
  return {
    waiter: waited.state,
    status: done.ProcessingJobStatus,
    selectedInstanceType: done.ProcessingResources.ClusterConfig.SelectedInstanceType,
    selectedInstanceCount: done.ProcessingResources.ClusterConfig.SelectedInstanceCount,
  };
}

async function skewed() {
  const listed = await client.send(new ListTrainingJobsCommand({MaxResults: 1}));
  return {listed: listed.TrainingJobSummaries.length, offsetAfter: client.config.systemClockOffset};
}

async function missing() {
  try {
    await client.send(new DescribeTrainingJobCommand({TrainingJobName: name}));
    return {error: null};
  } catch (e) {
    return {error: e.name, message: e.message, status: e.$metadata.httpStatusCode};
  }
}

const scenarios = {training, processing, skewed, missing};
try {
  console.log(JSON.stringify(await scenarios[scenario]()));
} catch (e) {
  console.log(JSON.stringify({failed: e.name, message: e.message, stack: String(e.stack)}));
  process.exitCode = 1;
}
