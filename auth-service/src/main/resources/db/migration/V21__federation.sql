-- Sign-in through another identity provider. An attempt lives from the sign-in page's button to
-- the provider's answer: the state sent to the provider names it (its keyed hash here), and the
-- browser that started it holds a random value (its keyed hash here too), from which the nonce
-- and the PKCE verifier are derived, so that no secret of the attempt is stored. Where the person
-- goes afterwards (the page and its parameters) comes with it.
CREATE TABLE federation_attempt (
    state_hash    bytea PRIMARY KEY,
    browser_hash  bytea NOT NULL,
    provider      text NOT NULL,
    return_path   text NOT NULL,
    return_params jsonb NOT NULL,
    client_id     text NOT NULL,
    link_session  bytea,                        -- linking from the account page: that session's hash
    expires_at    timestamptz NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX federation_attempt_expires ON federation_attempt (expires_at);

-- An identity the provider vouched for that no account uses yet, waiting for the person to make an
-- account with it or sign in to theirs to link it (the browser holds a random value; its hash here).
CREATE TABLE federation_pending (
    pending_hash  bytea PRIMARY KEY,
    provider      text NOT NULL,
    identity      jsonb NOT NULL,               -- what the provider said: subject, names, address, assurance, ORCID iD
    amr           text[] NOT NULL,              -- how the provider signed the person in
    return_path   text NOT NULL,
    return_params jsonb NOT NULL,
    client_id     text NOT NULL,
    expires_at    timestamptz NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX federation_pending_expires ON federation_pending (expires_at);

-- A pending second factor after a provider's sign-in: how the provider signed the person in, which
-- the session's methods keep (null: the password).
ALTER TABLE pending_sign_in ADD COLUMN first_amr text[];
