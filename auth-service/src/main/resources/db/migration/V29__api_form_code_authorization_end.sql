-- A code made by the API form of the authorization endpoint stands on the person's own token: the
-- authorization it starts ends when that token's does (never a longer grant than the token). Null
-- for the pages' codes, whose authorization is the application's usual one.
ALTER TABLE authorization_code ADD COLUMN authorization_ends timestamptz;
