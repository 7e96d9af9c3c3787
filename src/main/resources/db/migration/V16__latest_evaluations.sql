-- Each job's latest evaluation, beside the job rather than in its row. An evaluation that changes a job's reasons (its
-- first, above all) rewrote the job's row: a wide row with fourteen indexes, seven or eight of which took a new entry
-- for a pending job, and never a heap-only update, since the safety sweep's partial index named the column. After a
-- burst of 100,000 submissions the first evaluations wrote about 2.6 kB of WAL each and doubled the size of jobs,
-- while releases waited behind those writes (issue 29). Rewriting a narrow row instead, they write about 1 kB.
--
-- Every job gets its row when it is submitted (NewJobs), with no evaluation yet: the safety sweep finds the jobs no
-- cycle has evaluated through the partial index on those, and removes the rows of jobs that left the queue before
-- any cycle evaluated them (such jobs get no row here either).
CREATE TABLE latest_evaluations (
    job_id        uuid PRIMARY KEY,
    created_at    timestamptz NOT NULL,
    evaluation_id bigint,
    digest        text
);

INSERT INTO latest_evaluations (job_id, created_at, evaluation_id, digest)
SELECT id, created_at, last_evaluation_id, last_evaluation_digest FROM jobs
 WHERE last_evaluation_id IS NOT NULL OR status = 'PENDING';

CREATE INDEX latest_evaluations_missing ON latest_evaluations (created_at) WHERE evaluation_id IS NULL;

DROP INDEX jobs_unevaluated;
ALTER TABLE jobs DROP COLUMN last_evaluation_id, DROP COLUMN last_evaluation_digest;
