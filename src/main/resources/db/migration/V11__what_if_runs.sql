-- What-if runs (io.spillover.whatif): the platform's history or a trace replayed on the live configuration and on a
-- changed copy of it. A run reads the live tables and writes only this one: its input, change and both sides'
-- configurations as they were when it started, its progress while it replays, and its figures once done.
CREATE TABLE what_if_runs (
    id             uuid PRIMARY KEY,
    started_by     text             NOT NULL,
    created_at     timestamptz      NOT NULL,
    status         text             NOT NULL CHECK (status IN ('QUEUED', 'RUNNING', 'DONE', 'FAILED')),
    progress       double precision NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 1),
    input          jsonb            NOT NULL,
    edits          jsonb            NOT NULL,
    changes        jsonb            NOT NULL,
    assumptions    jsonb            NOT NULL,
    configurations jsonb            NOT NULL,
    result         jsonb,
    error          text,
    started_at     timestamptz,
    finished_at    timestamptz,
    -- written with every step and by the instance's heartbeat: a run whose instance died stops being updated
    updated_at     timestamptz      NOT NULL,
    CHECK ((status = 'DONE') = (result IS NOT NULL)),
    CHECK ((status = 'FAILED') = (error IS NOT NULL))
);
CREATE INDEX what_if_runs_newest ON what_if_runs (created_at DESC);
CREATE INDEX what_if_runs_unfinished ON what_if_runs (updated_at) WHERE status IN ('QUEUED', 'RUNNING');
