-- refresh_token: in one transaction, mark the refresh token used and insert the new pair.
\set n random(1, :tokens)
\set app random(:app_first, :app_last)
SELECT id, client_id, client_secret_hash, confidential, scopes FROM auth.application WHERE id = :app;
SELECT hash AS h FROM bench_floor.token_hashes WHERE n = :n \gset
BEGIN;
UPDATE auth.token SET updated_at = now() WHERE hash = :h RETURNING id, person_id, username, scopes, family;
INSERT INTO auth.token (kind, hash, encrypted, application_id, scopes, family, expires_at)
VALUES ('a', sha256(random()::text::bytea || clock_timestamp()::text::bytea), '\x00', :app, '{user}', gen_random_uuid(), now() + interval '2 hours'),
       ('r', sha256(random()::text::bytea || clock_timestamp()::text::bytea || 'r'), NULL, :app, '{user}', gen_random_uuid(), now() + interval '30 days');
COMMIT;
