-- Estimated starts of pending jobs (issue #17): the scheduling instance runs the queue forward from a snapshot after
-- the cycles that change it and writes here what moved, so every replica serves the same figures. A row outlives its
-- job's wait only until the next estimation; the API shows it while the job is PENDING.
CREATE TABLE job_estimates (
    job_id        uuid        PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
    team          text        NOT NULL,
    p10           timestamptz,
    p50           timestamptz,
    p90           timestamptz,
    entry         int         CHECK (entry >= 0),
    basis         text        NOT NULL,
    past_deadline boolean     NOT NULL,
    estimated_at  timestamptz NOT NULL,
    CHECK (p10 IS NULL OR p50 IS NULL OR p10 <= p50),
    CHECK (p50 IS NULL OR p90 IS NULL OR p50 <= p90)
);
