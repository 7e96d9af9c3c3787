-- A job whose attempt was lost with what ran it (the instance of a local job died) is placed again, up to
-- spillover.jobs.lost-attempt-retries times; the count of its lost attempts decides when it fails instead.
ALTER TABLE jobs ADD COLUMN lost_attempts integer NOT NULL DEFAULT 0;
