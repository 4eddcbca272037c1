-- "Forgot your password?": each link mailed is a random token, stored as its SHA-256 hash, good
-- once and for 30 minutes; setting a new password with one uses every other live one of the
-- person too. password_changed_at: when the password last changed (by recovery, for now).
CREATE TABLE password_recovery (
    token_hash     bytea PRIMARY KEY,
    person_id      bigint NOT NULL REFERENCES person (id) ON DELETE CASCADE,
    expires_at     timestamptz NOT NULL,
    used_at        timestamptz,
    client_address text,
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_recovery_person ON password_recovery (person_id);
CREATE INDEX password_recovery_expires ON password_recovery (expires_at);

ALTER TABLE person ADD COLUMN password_changed_at timestamptz;
