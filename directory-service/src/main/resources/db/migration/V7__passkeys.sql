-- WebAuthn credentials (passkeys and security keys): the facts auth-service verifies assertions
-- against. public_key is the COSE_Key the authenticator gave at registration; sign_count the last
-- signature counter seen, which a later assertion must pass (a cloned authenticator shows as a
-- counter that does not), moved forward by one conditional UPDATE.
CREATE TABLE passkey (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    person_id       bigint NOT NULL REFERENCES person (id) ON DELETE CASCADE,
    credential_id   bytea NOT NULL UNIQUE,
    public_key      bytea NOT NULL,
    sign_count      bigint NOT NULL DEFAULT 0,
    uv_initialized  boolean NOT NULL DEFAULT false,
    backup_eligible boolean NOT NULL DEFAULT false,
    transports      text,
    name            text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    last_used_at    timestamptz
);
CREATE INDEX passkey_person ON passkey (person_id);
