-- Each team's SageMaker defaults, set by a platform admin: its jobs run with them unless they give their own.
-- One row per team that has any; a job copies what it takes at submission, so a later change moves no queued job.
CREATE TABLE team_sagemaker (
    team               text PRIMARY KEY REFERENCES teams (name),
    role_arn           text,
    output_s3_uri      text,
    security_group_ids text[],
    subnets            text[],
    kms_key_id         text,
    tags               jsonb       NOT NULL DEFAULT '{}',
    updated_at         timestamptz NOT NULL,
    CHECK ((security_group_ids IS NULL) = (subnets IS NULL))
);
