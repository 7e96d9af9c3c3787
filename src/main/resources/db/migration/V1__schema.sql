-- Spillover's schema. Counters of capacity in use live beside their limits, and triggers refuse any change
-- that would raise a counter past its limit: no offering, plan or quota can be overbooked, whatever the
-- number of schedulers writing at once. Limits themselves may shrink below use (capacity drained by an
-- admin); then nothing new is booked until use falls below them again.

CREATE FUNCTION refuse_overbooking() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    used  int := (to_jsonb(NEW) ->> TG_ARGV[0])::int;
    was   int := (to_jsonb(OLD) ->> TG_ARGV[0])::int;
    limit_value int := (to_jsonb(NEW) ->> TG_ARGV[1])::int;
BEGIN
    IF used > was AND limit_value IS NOT NULL AND used > limit_value THEN
        RAISE EXCEPTION 'overbooking refused: % would be % of % on %', TG_ARGV[0], used, limit_value, TG_TABLE_NAME
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END $$;

CREATE TABLE teams (
    name                text PRIMARY KEY CHECK (name ~ '^[a-z0-9]([a-z0-9-]{0,38}[a-z0-9])?$'),
    display_name        text        NOT NULL,
    weight              int         NOT NULL CHECK (weight >= 1),
    queueing            text        NOT NULL CHECK (queueing IN ('BEST_EFFORT_FIFO', 'STRICT_FIFO')),
    max_accelerators    int CHECK (max_accelerators >= 0),
    max_concurrent_jobs int CHECK (max_concurrent_jobs >= 0),
    accelerators_in_use int         NOT NULL DEFAULT 0 CHECK (accelerators_in_use >= 0),
    jobs_in_use         int         NOT NULL DEFAULT 0 CHECK (jobs_in_use >= 0),
    created_at          timestamptz NOT NULL,
    updated_at          timestamptz NOT NULL,
    version             bigint      NOT NULL DEFAULT 0
);
CREATE TRIGGER teams_accelerators_not_overbooked BEFORE UPDATE ON teams
    FOR EACH ROW EXECUTE FUNCTION refuse_overbooking('accelerators_in_use', 'max_accelerators');
CREATE TRIGGER teams_jobs_not_overbooked BEFORE UPDATE ON teams
    FOR EACH ROW EXECUTE FUNCTION refuse_overbooking('jobs_in_use', 'max_concurrent_jobs');

-- One row per (team, instance type) the team ever had a limit for; a removed limit becomes 0, so that use
-- booked under it is still counted and released.
CREATE TABLE team_quotas (
    team          text NOT NULL REFERENCES teams (name),
    instance_type text NOT NULL,
    max_instances int  NOT NULL CHECK (max_instances >= 0),
    in_use        int  NOT NULL DEFAULT 0 CHECK (in_use >= 0),
    PRIMARY KEY (team, instance_type)
);
CREATE TRIGGER team_quotas_not_overbooked BEFORE UPDATE ON team_quotas
    FOR EACH ROW EXECUTE FUNCTION refuse_overbooking('in_use', 'max_instances');

CREATE TABLE offerings (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    provider          text NOT NULL,
    region            text NOT NULL,
    instance_type     text NOT NULL,
    source            text NOT NULL CHECK (source = 'on-demand' OR source LIKE 'plan:_%'),
    total             int  NOT NULL CHECK (total >= 0),
    in_use            int  NOT NULL DEFAULT 0 CHECK (in_use >= 0),
    unavailable_until timestamptz,
    unavailable_cause text,
    UNIQUE (provider, region, instance_type, source)
);
CREATE TRIGGER offerings_not_overbooked BEFORE UPDATE ON offerings
    FOR EACH ROW EXECUTE FUNCTION refuse_overbooking('in_use', 'total');

CREATE TABLE jobs (
    id                     uuid PRIMARY KEY,
    team                   text        NOT NULL REFERENCES teams (name),
    name                   text        NOT NULL,
    kind                   text        NOT NULL CHECK (kind IN ('TRAINING', 'PROCESSING')),
    status                 text        NOT NULL CHECK (status IN ('PENDING', 'STARTING', 'RUNNING', 'STOPPING',
                                                                  'COMPLETED', 'FAILED', 'STOPPED')),
    status_reason          text,
    status_message         text,
    instance_count         int CHECK (instance_count >= 1),
    max_pending_seconds    bigint      NOT NULL CHECK (max_pending_seconds >= 1),
    max_runtime_seconds    bigint CHECK (max_runtime_seconds >= 1),
    priority               int         NOT NULL,
    client_token           text,
    spec                   jsonb       NOT NULL,
    -- The selection of the current attempt; null while pending.
    selected_index         int,
    selected_type          text,
    selected_count         int,
    selected_region        text,
    selected_source        text,
    offering_id            bigint REFERENCES offerings (id),
    holds_capacity         boolean     NOT NULL DEFAULT false,
    attempt                int         NOT NULL DEFAULT 0,
    provider_job_name      text,
    created_at             timestamptz NOT NULL,
    pending_deadline       timestamptz NOT NULL,
    started_at             timestamptz,
    runtime_deadline       timestamptz,
    ended_at               timestamptz,
    last_evaluation_id     bigint,
    last_evaluation_digest text,
    version                bigint      NOT NULL DEFAULT 0,
    UNIQUE (team, name),
    UNIQUE (team, client_token),
    CHECK (holds_capacity = (offering_id IS NOT NULL))
);
CREATE INDEX jobs_queue ON jobs (priority DESC, created_at, id) WHERE status = 'PENDING';
CREATE INDEX jobs_pending_deadline ON jobs (pending_deadline) WHERE status = 'PENDING';
CREATE INDEX jobs_runtime_deadline ON jobs (runtime_deadline) WHERE status IN ('STARTING', 'RUNNING');
CREATE INDEX jobs_live ON jobs (status) WHERE status IN ('STARTING', 'RUNNING', 'STOPPING');
CREATE INDEX jobs_by_team ON jobs (team, created_at DESC);

CREATE TABLE job_entries (
    job_id         uuid NOT NULL REFERENCES jobs (id),
    idx            int  NOT NULL CHECK (idx BETWEEN 0 AND 4),
    instance_type  text NOT NULL,
    instance_count int  NOT NULL CHECK (instance_count >= 1),
    region         text NOT NULL,
    training_plan  text,
    PRIMARY KEY (job_id, idx),
    UNIQUE (job_id, instance_type, region)
);
-- Which pending jobs could use an offering whose capacity changed.
CREATE INDEX job_entries_offering ON job_entries (instance_type, region);

-- The audit log of a job: append-only, the database refuses UPDATE, DELETE and TRUNCATE.
CREATE TABLE job_transitions (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_id      uuid        NOT NULL REFERENCES jobs (id),
    team        text        NOT NULL,
    at          timestamptz NOT NULL,
    from_status text,
    to_status   text        NOT NULL,
    reason      text,
    message     text,
    attempt     int         NOT NULL
);
CREATE INDEX job_transitions_job ON job_transitions (job_id, id);

CREATE TABLE job_evaluations (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_id         uuid        NOT NULL REFERENCES jobs (id),
    team           text        NOT NULL,
    at             timestamptz NOT NULL,
    trigger        text        NOT NULL,
    outcome        text        NOT NULL,
    selected_index int,
    entries        jsonb       NOT NULL
);
CREATE INDEX job_evaluations_job ON job_evaluations (job_id, id DESC);

-- How often an evaluation was repeated with the same outcome and reasons: counted, not logged again.
CREATE TABLE evaluation_repeats (
    evaluation_id bigint PRIMARY KEY REFERENCES job_evaluations (id),
    repeats       int         NOT NULL CHECK (repeats >= 1),
    last_at       timestamptz NOT NULL
);

CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER job_transitions_append_only BEFORE UPDATE OR DELETE ON job_transitions
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER job_transitions_no_truncate BEFORE TRUNCATE ON job_transitions
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
CREATE TRIGGER job_evaluations_append_only BEFORE UPDATE OR DELETE ON job_evaluations
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER job_evaluations_no_truncate BEFORE TRUNCATE ON job_evaluations
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
