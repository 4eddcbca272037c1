-- How the person behind a token signed in (RFC 8176 method references, as the login session
-- kept them), so that introspection can tell resource servers the sign-in's class (acr, RFC 9470)
-- and a refreshed ID token says what the first one said. Null: no person (client credentials),
-- or a token issued before this column, whose sign-in is not known (treated as single-factor).
ALTER TABLE token ADD COLUMN amr text[];
