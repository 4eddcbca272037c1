-- OAuth clients. Secrets and tokens are never stored in clear: a keyed hash (HMAC-SHA256) finds
-- them; an access token is also kept encrypted (AES-GCM) because the spec shows it again.
CREATE TABLE application (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    owner_id            bigint,                    -- a person (directory); null for platform clients
    name                text NOT NULL,
    client_id           text NOT NULL,
    client_secret_hash  bytea,                     -- null for public clients
    confidential        boolean NOT NULL,
    redirect_uris       text[] NOT NULL,
    scopes              text[] NOT NULL,           -- what the application may ask for
    password_grant      boolean NOT NULL DEFAULT true,
    introspection       boolean NOT NULL DEFAULT false,  -- may call /oauth/introspect (the gateway)
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX application_client_id ON application (client_id);
CREATE INDEX application_owner ON application (owner_id, id);

-- Authorization codes: single use, 10 minutes, bound to client, redirect URI and PKCE challenge.
CREATE TABLE authorization_code (
    code_hash             bytea PRIMARY KEY,
    application_id        bigint NOT NULL REFERENCES application (id) ON DELETE CASCADE,
    person_id             bigint NOT NULL,
    username              text NOT NULL,
    redirect_uri          text NOT NULL,
    scopes                text[] NOT NULL,
    code_challenge        text,
    family                uuid NOT NULL,           -- the tokens this code issues belong to it
    expires_at            timestamptz NOT NULL,
    used_at               timestamptz,
    created_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX authorization_code_expires ON authorization_code (expires_at);

-- Access ('a') and refresh ('r') tokens. A family is one authorization: the code exchange or
-- password grant and every refresh after it, so that reuse of a rotated refresh token or a
-- replayed code revokes all of it at once.
CREATE TABLE token (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind           char(1) NOT NULL CHECK (kind IN ('a', 'r')),
    hash           bytea NOT NULL,
    encrypted      bytea,
    application_id bigint REFERENCES application (id) ON DELETE CASCADE,  -- null: password grant without a client
    person_id      bigint,                         -- null: the client acting for itself
    username       text,
    scopes         text[] NOT NULL,
    family         uuid NOT NULL,
    expires_at     timestamptz NOT NULL,
    used_at        timestamptz,                    -- refresh tokens: when it was rotated
    revoked_at     timestamptz,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX token_hash ON token (hash);
CREATE INDEX token_family ON token (family);
CREATE INDEX token_person_application ON token (person_id, application_id) WHERE kind = 'a';
CREATE INDEX token_expires ON token (expires_at);

-- Consent: what a person granted an application, remembered so the consent page is skipped.
CREATE TABLE consent (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    application_id bigint NOT NULL REFERENCES application (id) ON DELETE CASCADE,
    person_id      bigint NOT NULL,
    scopes         text[] NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX consent_person_application ON consent (person_id, application_id);

-- Browser sessions of the login page.
CREATE TABLE login_session (
    session_hash bytea PRIMARY KEY,
    person_id    bigint NOT NULL,
    username     text NOT NULL,
    csrf_token   text NOT NULL,
    expires_at   timestamptz NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_session_expires ON login_session (expires_at);
