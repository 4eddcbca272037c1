-- refresh_token: one statement, as the service makes it (TokenRepository.rotate): mark the
-- refresh token used and insert the new pair in its family, one commit.
\set n random(1, :tokens)
\set app random(:app_first, :app_last)
SELECT id, client_id, client_secret_hash, confidential, scopes FROM auth.application WHERE id = :app;
SELECT hash AS h FROM bench_floor.token_hashes WHERE n = :n \gset
WITH used AS (UPDATE auth.token SET updated_at = now() WHERE hash = :h RETURNING person_id, username, scopes, family),
issued AS (INSERT INTO auth.token (kind, hash, encrypted, application_id, person_id, username, scopes, family, expires_at)
  SELECT n.kind, n.hash, n.encrypted, :app, u.person_id, u.username, u.scopes, u.family, n.expires_at FROM used u,
  (VALUES ('a', sha256(random()::text::bytea || clock_timestamp()::text::bytea), '\x00'::bytea, now() + interval '2 hours'),
          ('r', sha256(random()::text::bytea || clock_timestamp()::text::bytea || 'r'), NULL::bytea, now() + interval '30 days'))
    AS n(kind, hash, encrypted, expires_at)
  RETURNING id, kind, scopes)
SELECT id, scopes FROM issued WHERE kind = 'a';
