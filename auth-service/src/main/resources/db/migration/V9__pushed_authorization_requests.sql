-- Pushed authorization requests (RFC 9126): a client posts its authorization request's parameters
-- to the server first and sends the browser with a request_uri only. A request_uri is good for 60
-- seconds until the browser opens it; then for the sign-in and consent steps (ten minutes) until
-- a code is issued with it, once.
CREATE TABLE pushed_authorization_request (
    request_uri_hash  bytea PRIMARY KEY,
    application_id    bigint NOT NULL REFERENCES application (id) ON DELETE CASCADE,
    params            jsonb NOT NULL,
    expires_at        timestamptz NOT NULL,
    opened_at         timestamptz,
    used_at           timestamptz,
    created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pushed_authorization_request_expires ON pushed_authorization_request (expires_at);
