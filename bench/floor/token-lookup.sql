-- Introspection: the client, then the token by its keyed hash (unique index).
\set n random(1, :tokens)
\set app random(:app_first, :app_last)
SELECT id, client_id, client_secret_hash, confidential, scopes FROM auth.application WHERE id = :app;
SELECT hash AS h FROM bench_floor.token_hashes WHERE n = :n \gset
SELECT id, kind, application_id, person_id, username, scopes, expires_at, revoked_at FROM auth.token WHERE hash = :h;
