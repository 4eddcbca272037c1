-- Every replica keeps live access tokens in memory for introspection (LiveAccessTokens). At commit,
-- these tell every replica which access tokens changed or went away, whatever statement did it:
-- a revocation, a grant withdrawn, an application deleted (ON DELETE CASCADE), or a fix by hand.
-- A payload is lookup hashes in hex, separated by commas, or '*' for "forget them all".

-- Changed: one notification a row. Rotating a refresh token changes no access token, so a refresh
-- never runs this (the WHEN clause is checked first, and a statement-level trigger would run on
-- every refresh: transition tables cannot be had with a column list). Revocations change a few rows.
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

-- Deleted: one notification a statement, since a deleted application may take a million live
-- tokens with it. Up to 100 hashes fit in a payload (8,000 bytes); more say '*'. Expired or revoked
-- rows are never kept in memory, so a purge of them tells nobody anything.
CREATE FUNCTION notify_access_tokens_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    live_count int;
    hashes text;
BEGIN
    SELECT count(*), string_agg(encode(hash, 'hex'), ',') INTO live_count, hashes
    FROM (SELECT hash FROM deleted WHERE kind = 'a' AND revoked_at IS NULL AND expires_at > now() LIMIT 101) live;
    IF live_count > 100 THEN
        PERFORM pg_notify('auth_access_token_changed', '*');
    ELSIF live_count > 0 THEN
        PERFORM pg_notify('auth_access_token_changed', hashes);
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER access_tokens_deleted AFTER DELETE ON token REFERENCING OLD TABLE AS deleted
    FOR EACH STATEMENT EXECUTE FUNCTION notify_access_tokens_deleted();
