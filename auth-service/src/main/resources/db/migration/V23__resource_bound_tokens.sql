-- Tokens that resource servers check themselves, bound to who holds them (RFC 9068, 8707, 9449, 8693).

-- Per application: the access token's format (opaque stays the default; jwt: RFC 9068), whether
-- every token request must carry a DPoP proof (RFC 9449 §5.2 dpop_bound_access_tokens), and
-- whether it may exchange a token it holds for another (RFC 8693).
ALTER TABLE application
    ADD COLUMN access_token_format text NOT NULL DEFAULT 'opaque' CHECK (access_token_format IN ('opaque', 'jwt')),
    ADD COLUMN dpop_bound_access_tokens boolean NOT NULL DEFAULT false,
    ADD COLUMN token_exchange boolean NOT NULL DEFAULT false;

-- A token's audience (RFC 8707 resource indicators): null is the platform's own API, as every
-- token before this column was. jkt: the JWK SHA-256 thumbprint of the DPoP key the token is
-- bound to (RFC 9449 cnf.jkt), null for a bearer token. actor: the client_id of the service
-- that exchanged a person's token for this one (RFC 8693 act.sub), null otherwise.
ALTER TABLE token
    ADD COLUMN audience text[],
    ADD COLUMN jkt text,
    ADD COLUMN actor text;

-- What the authorization request asked for: its resources (null: none named) and the DPoP key
-- the code is bound to (RFC 9449 §10 dpop_jkt).
ALTER TABLE authorization_code
    ADD COLUMN resources text[],
    ADD COLUMN dpop_jkt text;

-- DPoP proofs seen at the token endpoint, by a keyed hash of their key's thumbprint and jti: a
-- proof is good once, on whichever replica (RFC 9449 §11.1). Kept until its iat window is over.
CREATE TABLE dpop_proof_used (
    proof_hash bytea PRIMARY KEY,
    expires_at timestamptz NOT NULL
);
CREATE INDEX dpop_proof_used_expires ON dpop_proof_used (expires_at);
