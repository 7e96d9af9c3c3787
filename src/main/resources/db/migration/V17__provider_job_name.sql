-- What a provider reports (a job running, ended, lost) names the attempt by its provider job name, and the job is
-- found by it. Without an index that look-up read the whole jobs table: with 100,000 jobs pending, every start and
-- every end of a job scanned them all before its report could be applied.
CREATE INDEX jobs_by_provider_job_name ON jobs (provider_job_name) WHERE provider_job_name IS NOT NULL;
