-- OpenID Connect. Every new column is nullable or has a default, so that replicas of the version
-- before (rolling restarts) go on writing rows without knowing of them.

-- Per application: where RP-initiated logout may send the browser back to, which key series signs
-- its ID tokens (OpenID Connect Registration's id_token_signed_response_alg, RS256 by default), and
-- whether its authorization requests must be pushed first (RFC 9126).
ALTER TABLE application
    ADD COLUMN post_logout_redirect_uris              text[] NOT NULL DEFAULT '{}',
    ADD COLUMN id_token_signed_response_alg           text NOT NULL DEFAULT 'RS256'
        CHECK (id_token_signed_response_alg IN ('RS256', 'ES256')),
    ADD COLUMN require_pushed_authorization_requests  boolean NOT NULL DEFAULT false;

-- The authentication a code stands for: the request's nonce, echoed in the ID token, and when the
-- person signed in. A nonce is good for one code per client: a request that repeats one is refused.
ALTER TABLE authorization_code
    ADD COLUMN nonce     text,
    ADD COLUMN auth_time timestamptz;
CREATE UNIQUE INDEX authorization_code_nonce ON authorization_code (application_id, nonce) WHERE nonce IS NOT NULL;

-- When the person of a token's authorization signed in: every refresh carries it on, for the
-- auth_time of the ID tokens it issues.
ALTER TABLE token ADD COLUMN auth_time timestamptz;
