-- The device authorization grant (RFC 8628): a device (a command-line tool, a notebook) asks for
-- a device code and a user code; the person enters the user code on the verification page and
-- approves; the device polls the token endpoint until then. Both codes are kept as keyed hashes.
CREATE TABLE device_authorization (
    device_code_hash  bytea PRIMARY KEY,
    user_code_hash    bytea NOT NULL,
    application_id    bigint NOT NULL REFERENCES application (id) ON DELETE CASCADE,
    scopes            text[] NOT NULL,
    status            text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied')),
    person_id         bigint,                  -- who approved or denied
    username          text,
    auth_time         timestamptz,             -- when they signed in, for the ID token
    interval_seconds  integer NOT NULL,        -- grows by 5 with every slow_down
    last_polled_at    timestamptz,
    expires_at        timestamptz NOT NULL,
    used_at           timestamptz,             -- the tokens were issued (once)
    created_at        timestamptz NOT NULL DEFAULT now()
);
-- A user code names one live request: a new one may reuse the value once the old has expired
-- and been purged, never while it is pending.
CREATE UNIQUE INDEX device_authorization_user_code ON device_authorization (user_code_hash);
CREATE INDEX device_authorization_expires ON device_authorization (expires_at);

-- Wrong user codes entered in a browser session: after a few, the session ends (RFC 8628 §5.1).
ALTER TABLE login_session ADD COLUMN user_code_failures integer NOT NULL DEFAULT 0;
