-- In-team preemption (spillover.sharing.shorter-first): a job stopped for a shorter job of its own team resumes before
-- the team's other jobs of its priority once the instances come back (io.spillover.placement.QueuedRequest#gaveWay).
-- Set when such a preemption is asked for, cleared when the job is placed again; the scheduler reads the few pending
-- jobs that gave way in every cycle, wherever they stand in the queue.
ALTER TABLE jobs ADD COLUMN gave_way boolean NOT NULL DEFAULT false;
CREATE INDEX jobs_pending_after_giving_way ON jobs (id) WHERE gave_way AND status = 'PENDING';
