-- Every replica keeps live access tokens in memory for introspection (LiveAccessTokens). At commit,
-- these tell every replica which access tokens changed or went away, whatever statement did it:
-- a revocation, a grant withdrawn, an application deleted (ON DELETE CASCADE), or a fix by hand.
-- The payload is the token's lookup hash in hex. Rotating a refresh token changes no access
-- token, so the hot path of a refresh never fires these (the WHEN clauses are checked first).
CREATE FUNCTION notify_access_token_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('auth_access_token_changed', encode(OLD.hash, 'hex'));
    RETURN NULL;
END;
$$;

CREATE TRIGGER access_token_changed AFTER UPDATE ON token FOR EACH ROW
    WHEN (OLD.kind = 'a' AND (OLD.hash, OLD.revoked_at, OLD.expires_at, OLD.scopes, OLD.username, OLD.person_id,
        OLD.application_id) IS DISTINCT FROM (NEW.hash, NEW.revoked_at, NEW.expires_at, NEW.scopes, NEW.username,
        NEW.person_id, NEW.application_id))
    EXECUTE FUNCTION notify_access_token_changed();

-- Expired or revoked rows are never kept in memory, so purging them tells nobody anything.
CREATE TRIGGER access_token_deleted AFTER DELETE ON token FOR EACH ROW
    WHEN (OLD.kind = 'a' AND OLD.revoked_at IS NULL AND OLD.expires_at > now())
    EXECUTE FUNCTION notify_access_token_changed();
