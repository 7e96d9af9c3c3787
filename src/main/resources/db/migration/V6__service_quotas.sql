-- Under a provider that reads its account's limits (SageMaker's Service Quotas), an offering nobody declared
-- takes its total from them. Each offering says where its total came from, and keeps the figures it was made
-- of, so the capacity view can show them and a submission that can never run is refused.
--   declared: a fleet table entry or an admin set the total (it wins over any quota);
--   quota:    the larger of the type's training and processing quotas, less what jobs outside Spillover hold;
--   learned:  the provider refused a launch naming the account's limit, which stands until the next reading.
ALTER TABLE offerings
    ADD COLUMN limit_source     text NOT NULL DEFAULT 'declared' CHECK (limit_source IN ('declared', 'quota', 'learned')),
    ADD COLUMN training_quota   int CHECK (training_quota >= 0),
    ADD COLUMN processing_quota int CHECK (processing_quota >= 0),
    ADD COLUMN outside_use      int CHECK (outside_use >= 0);

-- When each served region's quotas were last read: an entry of a region never read may still get an offering,
-- so only a region that was read can say a type has none.
CREATE TABLE quota_readings (
    provider text        NOT NULL,
    region   text        NOT NULL,
    read_at  timestamptz NOT NULL,
    PRIMARY KEY (provider, region)
);
