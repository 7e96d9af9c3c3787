-- Each job's first estimated start, as the forecast made it before calibration (issue #17): how these compared with
-- the starts that followed widens the intervals of later estimates (replay.Calibration). Waits are in seconds from
-- made_at.
CREATE TABLE first_estimates (
    job_id  uuid        PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
    made_at timestamptz NOT NULL,
    p10_s   bigint      NOT NULL,
    p50_s   bigint      NOT NULL,
    p90_s   bigint      NOT NULL,
    CHECK (0 <= p10_s AND p10_s <= p50_s AND p50_s <= p90_s)
);
CREATE INDEX first_estimates_latest ON first_estimates (made_at DESC);
