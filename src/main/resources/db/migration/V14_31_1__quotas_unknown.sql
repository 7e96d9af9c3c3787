-- A region whose service quotas could never be read (access denied, no endpoint reachable) still runs jobs: an
-- entry of a type nobody declared gets an offering whose limit is unknown ('unknown'), and is tried, as SageMaker's
-- own preference lists try each type; the provider's answer is the limit (a ResourceLimitExceeded is learned).
ALTER TABLE offerings DROP CONSTRAINT offerings_limit_source_check;
ALTER TABLE offerings ADD CONSTRAINT offerings_limit_source_check
    CHECK (limit_source IN ('declared', 'quota', 'learned', 'unknown'));

-- Why each served region's quotas could not be read at the last try; gone once a reading succeeds.
CREATE TABLE quota_failures (
    provider  text        NOT NULL,
    region    text        NOT NULL,
    failed_at timestamptz NOT NULL,
    reason    text        NOT NULL,
    PRIMARY KEY (provider, region)
);
