-- The keys that sign ID tokens (OpenID Connect), one series per algorithm. A key is published in
-- the JWKS from its creation, signs from the moment the key before it retires, and stays published
-- until drop_at, when nothing it signed can still be valid. The private key is stored encrypted
-- (AES-GCM with ziggurat.auth.token-encryption-key): it never leaves auth-service in the clear.
CREATE TABLE signing_key (
    kid         text PRIMARY KEY,
    alg         text NOT NULL CHECK (alg IN ('RS256', 'ES256')),
    public_jwk  text NOT NULL,
    private_jwk bytea NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    retire_at   timestamptz NOT NULL,
    drop_at     timestamptz NOT NULL,
    CHECK (retire_at <= drop_at)
);

CREATE INDEX signing_key_alg_retire ON signing_key (alg, retire_at);
