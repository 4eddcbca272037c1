-- Identity providers an operator added through the API, beside the deployment's configuration
-- (which wins for an id it names). The client secret is sealed (AES-256-GCM under the token
-- encryption key, as ID-token signing keys are): a database dump does not yield it. Every replica
-- reads this table again every few seconds (ziggurat.auth.federation.refresh-every).
CREATE TABLE upstream_provider (
    id                     text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
    kind                   text NOT NULL CHECK (kind IN ('oidc', 'orcid', 'github')),
    display_name           text,
    issuer                 text,
    client_id              text NOT NULL,
    client_secret_sealed   bytea,
    client_auth            text NOT NULL DEFAULT 'basic' CHECK (client_auth IN ('basic', 'post')),
    scopes                 text,
    orcid_claim            text,
    new_accounts           boolean NOT NULL DEFAULT true,
    authorization_endpoint text,
    token_endpoint         text,
    api_base               text,
    created_at             timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now()
);
