-- A release must cost what it can start, not how many wait (issue 29). A cycle reads, for each offering with an
-- instance free and each team waiting on it, the first jobs in queue order: a window of bounded length. So that
-- each window is one walk of one index in the order it is read, whatever the table's statistics say, entries
-- carry their job's team and queue position (priority and submission time never change after submission).
--
-- What this replaces: the teams' look-up joined the offering's pending entries to the team's pending jobs. Right
-- after a burst of 10,000 jobs on one type, before any ANALYZE had seen them, the planner took the entries for one
-- row and chose a nested loop whose inner side (a bitmap AND of two of jobs' indexes, not a key look-up) ran once
-- per entry: 10,000 × 20,000 index entries, 50 million rows thrown away by the join filter, 14 s.
ALTER TABLE job_entries ADD COLUMN team text, ADD COLUMN priority int, ADD COLUMN created_at timestamptz;

UPDATE job_entries e SET team = j.team, priority = j.priority, created_at = j.created_at FROM jobs j WHERE j.id = e.job_id;

ALTER TABLE job_entries ALTER COLUMN team SET NOT NULL, ALTER COLUMN priority SET NOT NULL,
    ALTER COLUMN created_at SET NOT NULL;

-- The count rides along so that a window skips, without a visit to the table, the jobs too big for what is free.
CREATE INDEX job_entries_queue ON job_entries (instance_type, region, team, priority DESC, created_at, job_id)
    INCLUDE (instance_count) WHERE pending;
DROP INDEX job_entries_pending_offering;
-- Every entry ever, by type: nothing reads it any more, and with the statistics behind a burst the planner took it
-- for the windows' reads (and sorted what it found), as it had for the teams' look-up above.
DROP INDEX job_entries_offering;

-- A strict-FIFO team's head, in queue order.
CREATE INDEX jobs_team_queue ON jobs (team, priority DESC, created_at, id) WHERE status = 'PENDING';
