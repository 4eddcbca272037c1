-- Second factors: the facts the directory keeps; auth-service does the sign-in.
-- A person's TOTP key (RFC 6238), sealed with AES-256-GCM under the directory's factor key
-- (12-byte nonce, then ciphertext and tag). confirmed_at is null while the person enrols: the
-- factor counts only after a first correct code. last_step: the last 30-second step whose code was
-- accepted; a code is accepted once, by a conditional UPDATE that every replica goes through.
CREATE TABLE totp_factor (
    person_id     bigint PRIMARY KEY REFERENCES person (id) ON DELETE CASCADE,
    secret_sealed bytea NOT NULL,
    confirmed_at  timestamptz,
    last_step     bigint NOT NULL DEFAULT 0,
    last_used_at  timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now()
);

-- Single-use recovery codes, shown once: HMAC-SHA-256 under a key derived from the factor key,
-- so a copy of the table alone cannot be searched offline.
CREATE TABLE recovery_code (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    person_id  bigint NOT NULL REFERENCES person (id) ON DELETE CASCADE,
    code_hash  bytea NOT NULL,
    used_at    timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (person_id, code_hash)
);

-- What happened to a person's account security (a factor added or removed, codes regenerated, a
-- recovery code used): the account page shows it, and mail about it reads it.
CREATE TABLE account_event (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    person_id      bigint NOT NULL REFERENCES person (id) ON DELETE CASCADE,
    kind           text NOT NULL,
    client_address text,
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX account_event_person ON account_event (person_id, created_at DESC);

-- An organization may require its members to have a second factor (GitHub's
-- two_factor_requirement_enabled): a member without one keeps the membership, not its rights.
ALTER TABLE organization ADD COLUMN two_factor_required boolean NOT NULL DEFAULT false;

-- person.two_factor_enabled (V2) is now set from these tables in every transaction that changes
-- them (FactorRepository, with the person's row locked), so it never disagrees with them; the reads
-- of every person take it. Replicas of the release before, which read it, go on working through a
-- rolling upgrade.
