-- Webhooks (issue #18): a team's hooks, the transactional outbox of job events and the deliveries made from it.

-- A team's hook. Its signing secret is kept encrypted (AES-GCM under spillover.webhooks.secret-key, whose id
-- is kept beside it), never hashed: it must sign. job_name_pattern is the glob as a LIKE pattern.
CREATE TABLE webhooks (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    team             text        NOT NULL REFERENCES teams (name),
    name             text        NOT NULL CHECK (name ~ '^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$'),
    url              text        NOT NULL,
    events           text[]      NOT NULL,
    job_name_glob    text        NOT NULL,
    job_name_pattern text        NOT NULL,
    secret           bytea       NOT NULL,
    secret_key_id    text        NOT NULL,
    enabled          boolean     NOT NULL DEFAULT true,
    disabled_reason  text,
    created_at       timestamptz NOT NULL,
    created_by       text        NOT NULL,
    updated_at       timestamptz NOT NULL,
    UNIQUE (team, name)
);

-- The outbox: one row per event, written in the transaction of the change it reports, and only when a hook of
-- the team wanted it then (webhook_ids). The dispatcher expands it into one delivery per hook. A job's events
-- are ordered by (transition_id, ordinal): the transition's id grows with the job's history, and a start that
-- fell back is two events of one transition.
CREATE TABLE webhook_events (
    id            uuid PRIMARY KEY,
    team          text        NOT NULL,
    job_id        uuid,
    job_name      text,
    transition_id bigint,
    ordinal       smallint    NOT NULL DEFAULT 0,
    type          text        NOT NULL,
    body          text        NOT NULL,
    webhook_ids   bigint[]    NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    expanded      boolean     NOT NULL DEFAULT false
);
CREATE INDEX webhook_events_unexpanded ON webhook_events (job_id, transition_id, ordinal) WHERE NOT expanded;

-- One event to one hook. PENDING until a 2xx (DELIVERED) or until retrying gives up (FAILED). A claim leases
-- the row to one instance (leased_by, its pid@host) until leased_until; claim counts the leases so that a late
-- answer of a lost lease cannot overwrite the next holder's outcome.
CREATE TABLE webhook_deliveries (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    team            text        NOT NULL,
    webhook_id      bigint      NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id        uuid        NOT NULL REFERENCES webhook_events (id),
    job_id          uuid,
    transition_id   bigint,
    ordinal         smallint    NOT NULL DEFAULT 0,
    state           text        NOT NULL DEFAULT 'PENDING' CHECK (state IN ('PENDING', 'DELIVERED', 'FAILED')),
    attempts        int         NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now(),
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    leased_until    timestamptz,
    leased_by       text,
    claim           int         NOT NULL DEFAULT 0,
    last_status     int,
    last_error      text,
    done_at         timestamptz,
    redelivery_of   bigint
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'PENDING';
CREATE INDEX webhook_deliveries_order ON webhook_deliveries (webhook_id, job_id, transition_id, ordinal)
    WHERE state = 'PENDING';
CREATE INDEX webhook_deliveries_hook ON webhook_deliveries (webhook_id, id DESC);
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (leased_until) WHERE state = 'PENDING';

-- Every try of a delivery: when, the answer's status (none when there was no answer), how long, what went wrong.
CREATE TABLE webhook_attempts (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    team        text        NOT NULL,
    delivery_id bigint      NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    at          timestamptz NOT NULL,
    status      int,
    latency_ms  int         NOT NULL,
    error       text,
    instance    text
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, id);
