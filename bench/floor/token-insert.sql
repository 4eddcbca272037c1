-- client_credentials: the client by id, then one INSERT of the access token (one commit).
\set app random(:app_first, :app_last)
SELECT id, client_id, client_secret_hash, confidential, scopes FROM auth.application WHERE id = :app;
INSERT INTO auth.token (kind, hash, encrypted, application_id, scopes, family, expires_at)
VALUES ('a', sha256(random()::text::bytea || clock_timestamp()::text::bytea), '\x00', :app, '{public}', gen_random_uuid(), now() + interval '2 hours');
