-- Client authentication with a signed JWT (private_key_jwt: RFC 7523 §2.2, OpenID Connect Core
-- §9): each assertion is good once. Its jti is kept until the assertion expires (at most ten
-- minutes), per client, so that a replayed one is refused on every replica; expired ones go as the
-- client authenticates again.
CREATE TABLE client_assertion (
    client_id  text        NOT NULL,
    jti        text        NOT NULL,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (client_id, jti)
);
CREATE INDEX client_assertion_expiry ON client_assertion (expires_at);
