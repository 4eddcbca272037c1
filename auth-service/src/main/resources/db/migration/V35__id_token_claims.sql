-- The claims an authorization request asked for its ID token (OpenID Connect Core §5.5), kept
-- with its code until the code is exchanged: only names; the values are read when the token is.
ALTER TABLE authorization_code ADD COLUMN id_token_claims text[];
