-- The safety sweep reads the pending jobs that no cycle has evaluated yet: few, found without walking the queue.
CREATE INDEX jobs_unevaluated ON jobs (created_at) WHERE status = 'PENDING' AND last_evaluation_id IS NULL;
