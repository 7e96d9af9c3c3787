-- People, their team memberships, API tokens and the audit log of admin actions and failed sign-ins.
-- No secret is stored in clear: passwords as bcrypt (or another encoder's) hashes, tokens as salted SHA-256.

CREATE TABLE users (
    username        text PRIMARY KEY CHECK (username ~ '^[a-z0-9][a-z0-9._@-]{0,99}$'),
    display_name    text        NOT NULL,
    password_hash   text,
    platform_admin  boolean     NOT NULL DEFAULT false,
    disabled        boolean     NOT NULL DEFAULT false,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);

CREATE TABLE memberships (
    username text NOT NULL REFERENCES users (username),
    team     text NOT NULL REFERENCES teams (name),
    role     text NOT NULL CHECK (role IN ('MEMBER', 'TEAM_ADMIN')),
    PRIMARY KEY (username, team)
);
CREATE INDEX memberships_team ON memberships (team);

-- A token belongs to one team (role MEMBER or TEAM_ADMIN) or is a platform-admin token (no team).
CREATE TABLE api_tokens (
    id           text PRIMARY KEY,
    team         text REFERENCES teams (name),
    role         text        NOT NULL CHECK (role IN ('MEMBER', 'TEAM_ADMIN', 'PLATFORM_ADMIN')),
    name         text        NOT NULL,
    salt         bytea       NOT NULL,
    secret_hash  bytea       NOT NULL,
    created_at   timestamptz NOT NULL,
    created_by   text        NOT NULL,
    expires_at   timestamptz,
    last_used_at timestamptz,
    revoked_at   timestamptz,
    CHECK ((team IS NULL) = (role = 'PLATFORM_ADMIN'))
);
CREATE INDEX api_tokens_team ON api_tokens (team);

CREATE TABLE audit_log (
    id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at      timestamptz NOT NULL,
    actor   text        NOT NULL,
    action  text        NOT NULL,
    target  text        NOT NULL,
    outcome text        NOT NULL,
    source  text
);
CREATE INDEX audit_log_at ON audit_log (at DESC);
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION refuse_change();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_change();
