-- What the account page shows of each sign-in: an id to name it in a form (sign out this one),
-- the address and browser it started from, and when it was last used (a sign-in, an
-- authorization, a change on the account page: never a mere page view).
ALTER TABLE login_session ADD COLUMN id bigserial;
CREATE UNIQUE INDEX login_session_id ON login_session (id);
ALTER TABLE login_session ADD COLUMN client_address text;
ALTER TABLE login_session ADD COLUMN user_agent text;
ALTER TABLE login_session ADD COLUMN last_seen_at timestamptz;
