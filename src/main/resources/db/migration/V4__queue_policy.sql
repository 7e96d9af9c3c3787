-- Fair share reads the runs that ended within ten half-lives (io.spillover.queue.FairShares).
CREATE INDEX jobs_ended ON jobs (ended_at) WHERE ended_at IS NOT NULL;
