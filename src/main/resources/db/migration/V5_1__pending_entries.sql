-- A cycle asks which pending jobs list an offering with an instance free. job_entries keeps every job's entries
-- for its whole history, so an index on (instance_type, region) alone grows with every job ever run, and a
-- team's pending jobs probed one by one grow with the queue. Entries carry whether their job is pending, kept
-- by the database itself as a job's status changes, so the question reads only pending entries of the offering.
ALTER TABLE job_entries ADD COLUMN pending boolean NOT NULL DEFAULT true;

UPDATE job_entries e SET pending = false FROM jobs j WHERE j.id = e.job_id AND j.status <> 'PENDING';

CREATE FUNCTION job_entries_follow_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE job_entries SET pending = (NEW.status = 'PENDING') WHERE job_id = NEW.id;
    RETURN NULL;
END
$$;

CREATE TRIGGER job_entries_pending AFTER UPDATE OF status ON jobs FOR EACH ROW
    WHEN ((OLD.status = 'PENDING') IS DISTINCT FROM (NEW.status = 'PENDING'))
    EXECUTE FUNCTION job_entries_follow_status();

CREATE INDEX job_entries_pending_offering ON job_entries (instance_type, region) WHERE pending;
