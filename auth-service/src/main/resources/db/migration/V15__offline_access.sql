-- OpenID Connect Core §11: an OpenID Connect client's tokens without offline_access end with the
-- sign-in they came from. A code and a device approval remember the login session they were
-- given in; the tokens they issue carry it, and signing out of that session revokes them.
-- Null: not bound to a session (offline_access, a plain OAuth request, or no session at all).
ALTER TABLE authorization_code ADD COLUMN session_hash bytea;
ALTER TABLE device_authorization ADD COLUMN session_hash bytea;
ALTER TABLE token ADD COLUMN session_hash bytea;
CREATE INDEX token_session ON token (session_hash) WHERE session_hash IS NOT NULL;
