-- How a session's person signed in (RFC 8176 method references: pwd; then otp and mfa after a
-- second factor), and whether they have a second factor at all (which an application's
-- acr_values may then ask for again).
ALTER TABLE login_session ADD COLUMN amr text[] NOT NULL DEFAULT '{pwd}';
ALTER TABLE login_session ADD COLUMN second_factor boolean NOT NULL DEFAULT false;

-- A sign-in between the password and the second factor: the browser holds a random value, this
-- table its keyed hash, for a few minutes. No session exists until the second factor passes.
CREATE TABLE pending_sign_in (
    pending_hash bytea PRIMARY KEY,
    person_id    bigint NOT NULL,
    username     text NOT NULL,
    expires_at   timestamptz NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pending_sign_in_expires ON pending_sign_in (expires_at);
