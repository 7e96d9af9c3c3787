-- Training plans (reserved capacity; each is an offering of its own, source 'plan:<name>') and the teams
-- that may use them; named preference profiles, versioned; what a job took from a profile.

CREATE TABLE training_plans (
    name           text PRIMARY KEY CHECK (name ~ '^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$'),
    arn            text,
    instance_type  text        NOT NULL,
    instance_count int         NOT NULL CHECK (instance_count >= 1),
    region         text        NOT NULL,
    start_time     timestamptz NOT NULL,
    end_time       timestamptz NOT NULL,
    status         text        NOT NULL CHECK (status IN ('PENDING', 'SCHEDULED', 'ACTIVE', 'EXPIRED', 'FAILED')),
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL,
    CHECK (end_time > start_time)
);

CREATE TABLE training_plan_teams (
    plan text NOT NULL REFERENCES training_plans (name),
    team text NOT NULL REFERENCES teams (name),
    PRIMARY KEY (plan, team)
);
CREATE INDEX training_plan_teams_team ON training_plan_teams (team);

-- Every save of a profile is a new version; a deleted profile keeps its versions for the jobs that used them.
CREATE TABLE profiles (
    team                 text        NOT NULL REFERENCES teams (name),
    name                 text        NOT NULL CHECK (name ~ '^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$'),
    version              int         NOT NULL CHECK (version >= 1),
    body                 jsonb       NOT NULL,
    deleted              boolean     NOT NULL DEFAULT false,
    created_at           timestamptz NOT NULL,
    created_by           text        NOT NULL,
    PRIMARY KEY (team, name, version)
);

ALTER TABLE jobs ADD COLUMN profile_name text, ADD COLUMN profile_version int;
CREATE INDEX jobs_live_on_source ON jobs (selected_source) WHERE status IN ('STARTING', 'RUNNING');
CREATE INDEX job_entries_plan ON job_entries (training_plan) WHERE training_plan IS NOT NULL;
