-- WebAuthn challenges answered already (keyed hash), so that an answer is accepted once; the
-- challenges themselves carry their own MAC and expiry and are not stored before they are used.
CREATE TABLE passkey_challenge_used (
    challenge_hash bytea PRIMARY KEY,
    expires_at     timestamptz NOT NULL
);
CREATE INDEX passkey_challenge_used_expires ON passkey_challenge_used (expires_at);
