-- A sign-in address is verified when its owner follows the link mailed to it: email_verified_at
-- says when (null: not verified, or changed since). Each link is a random token, stored as its
-- SHA-256 hash, good once and for 24 hours, and for the address it was sent to only.
ALTER TABLE person ADD COLUMN email_verified_at timestamptz;

CREATE TABLE email_verification (
    token_hash bytea PRIMARY KEY,
    person_id  bigint NOT NULL REFERENCES person (id) ON DELETE CASCADE,
    email      text NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at    timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_verification_person ON email_verification (person_id);
CREATE INDEX email_verification_expires ON email_verification (expires_at);
