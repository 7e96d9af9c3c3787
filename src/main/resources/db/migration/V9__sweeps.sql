-- A job's sweep (io.spillover.placement.ExpectedRuns): the jobs its team submitted with the same profile, or the
-- same list, each within five minutes of the one before, as a pipeline fans out the trials of a search. The
-- runs of a sweep's members are the best witness of how long its pending members will run. The key comes from
-- the service; the sweep is found here, as the row is written, so a submission costs no extra round trip.
ALTER TABLE jobs ADD COLUMN sweep_key text, ADD COLUMN sweep_id uuid;
UPDATE jobs SET sweep_id = id;
ALTER TABLE jobs ALTER COLUMN sweep_id SET NOT NULL;

CREATE INDEX jobs_sweep_latest ON jobs (team, sweep_key, created_at DESC) WHERE sweep_key IS NOT NULL;
CREATE INDEX jobs_sweep_members ON jobs (sweep_id, started_at DESC) WHERE started_at IS NOT NULL;

-- The gap is ExpectedRuns.SWEEP_GAP (SweepsTest holds the two to the same five minutes).
CREATE FUNCTION jobs_join_sweep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.sweep_id := NULL;
    IF NEW.sweep_key IS NOT NULL THEN
        SELECT j.sweep_id INTO NEW.sweep_id
          FROM jobs j
         WHERE j.team = NEW.team AND j.sweep_key = NEW.sweep_key
           AND j.created_at BETWEEN NEW.created_at - interval '5 minutes' AND NEW.created_at
         ORDER BY j.created_at DESC
         LIMIT 1;
    END IF;
    NEW.sweep_id := coalesce(NEW.sweep_id, NEW.id);
    RETURN NEW;
END $$;
CREATE TRIGGER jobs_join_sweep BEFORE INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION jobs_join_sweep();
