-- Quotas are guarantees that can be lent (issue 30, SPEC §8.1). A team's per-type limit (team_quotas.max_instances)
-- is what it is guaranteed; its sharing says whether it lends what it leaves idle and borrows what others leave
-- idle, and how much it may borrow (io.spillover.placement.BorrowLimit): a percent of each type's guarantee
-- (teams.borrow_limit_percent), or instances per type (teams.borrow_limits_per_type, the limits in
-- team_quotas.borrow_limit; a type without one: none), or (neither) no limit. Existing teams lend and do not borrow,
-- so nothing runs beyond a quota until an admin lets a team borrow.
ALTER TABLE teams
    ADD COLUMN sharing                text    NOT NULL DEFAULT 'LEND'
        CHECK (sharing IN ('RESERVE', 'LEND', 'LEND_AND_BORROW')),
    ADD COLUMN borrow_limit_percent   int CHECK (borrow_limit_percent BETWEEN 0 AND 10000),
    ADD COLUMN borrow_limits_per_type boolean NOT NULL DEFAULT false,
    ADD CHECK (borrow_limit_percent IS NULL OR NOT borrow_limits_per_type);
ALTER TABLE team_quotas ADD COLUMN borrow_limit int CHECK (borrow_limit >= 0);

-- How many instances of a type the team may hold beyond its guarantee; null for no limit. The same rule as
-- io.spillover.placement.TeamState#mayBorrow (SharingSettingsTest holds the two together).
CREATE FUNCTION team_borrowable(team_name text, guarantee int, type_limit int) RETURNS int LANGUAGE sql STABLE AS $$
    SELECT CASE
               WHEN t.sharing <> 'LEND_AND_BORROW' THEN 0
               WHEN t.borrow_limit_percent IS NOT NULL THEN guarantee * t.borrow_limit_percent / 100
               WHEN t.borrow_limits_per_type THEN coalesce(type_limit, 0)
           END
      FROM teams t WHERE t.name = team_name
$$;

-- A team's use of a type may pass its guarantee by what it may borrow, never more. Whether the instances it borrows
-- are idle (no team below its guarantee waits for them) is the placement core's rule, applied by the one scheduler;
-- the offerings' own guard keeps the fleet from being overbooked.
CREATE FUNCTION refuse_quota_overbooking() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    borrowable int;
BEGIN
    IF NEW.in_use > OLD.in_use AND NEW.in_use > NEW.max_instances THEN
        borrowable := team_borrowable(NEW.team, NEW.max_instances, NEW.borrow_limit);
        IF borrowable IS NOT NULL AND NEW.in_use > NEW.max_instances + borrowable THEN
            RAISE EXCEPTION 'overbooking refused: in_use would be % of % (guarantee %, borrowable %) on team_quotas',
                NEW.in_use, NEW.max_instances + borrowable, NEW.max_instances, borrowable
                USING ERRCODE = 'check_violation';
        END IF;
    END IF;
    RETURN NEW;
END $$;

DROP TRIGGER team_quotas_not_overbooked ON team_quotas;
CREATE TRIGGER team_quotas_not_overbooked BEFORE UPDATE ON team_quotas
    FOR EACH ROW EXECUTE FUNCTION refuse_quota_overbooking();

-- A job that can be stopped and resumed from its checkpoint opts in to preemption; how often it was preempted (each
-- time placed again as a new attempt at its queue position); how many instances of its current or last placement
-- were borrowed beyond its team's guarantee when it was placed; since when it is being stopped (its instances come
-- back soon: a reclaim counts on them instead of preempting another job).
ALTER TABLE jobs
    ADD COLUMN preemptible        boolean NOT NULL DEFAULT false,
    ADD COLUMN preemptions        int     NOT NULL DEFAULT 0 CHECK (preemptions >= 0),
    ADD COLUMN borrowed_instances int     NOT NULL DEFAULT 0 CHECK (borrowed_instances >= 0),
    ADD COLUMN stopping_since     timestamptz;
