-- Refresh tokens rotate, and each rotation's token lived 30 days from then: one authorization never
-- ended (ASVS 5.0 V10.4.8). Now every token of a family carries when the authorization itself
-- ends, fixed at its grant (ziggurat.auth.refresh-token-absolute-lifetime, 90 days by default, or
-- the application's own shorter refresh_token_absolute_lifetime); no refresh token outlives it.
ALTER TABLE token ADD COLUMN authorization_expires_at timestamptz;
-- Families granted before this: from their oldest token still kept, with the default 90 days.
UPDATE token t SET authorization_expires_at = f.granted + interval '90 days'
  FROM (SELECT family, min(created_at) AS granted FROM token GROUP BY family) f
 WHERE t.family = f.family;
UPDATE token SET expires_at = authorization_expires_at WHERE kind = 'r' AND expires_at > authorization_expires_at;
ALTER TABLE token ALTER COLUMN authorization_expires_at SET NOT NULL;
-- The service always sets it; a row written any other way gets the default limit.
ALTER TABLE token ALTER COLUMN authorization_expires_at SET DEFAULT now() + interval '90 days';

-- An application's own limit, in seconds (null: the platform's).
ALTER TABLE application ADD COLUMN refresh_token_absolute_lifetime integer
    CHECK (refresh_token_absolute_lifetime > 0);
