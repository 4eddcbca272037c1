-- V4 told the deletion of more than 100 live access tokens as '*' ("forget them all"), which every
-- gateway replica follows through the revocation feed by dropping every answer it keeps (and
-- reusing new ones only briefly for a while). Any application owner could set that off at will:
-- 101 client_credentials tokens, then delete the application; each round costs the platform every
-- caller's next introspection. Now the hashes go in parts of 100 (6,500 bytes, under the 8,000 of a
-- payload), one notification each, and '*' only past 5,000 live tokens (50 notifications), fifty
-- times the tokens for the same effect. Each part is a payload of its own, as a revocation's is.
CREATE OR REPLACE FUNCTION notify_access_tokens_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    live_count int;
    part text;
BEGIN
    SELECT count(*) INTO live_count
    FROM (SELECT 1 FROM deleted WHERE kind = 'a' AND revoked_at IS NULL AND expires_at > now() LIMIT 5001) live;
    IF live_count > 5000 THEN
        PERFORM pg_notify('auth_access_token_changed', '*');
        RETURN NULL;
    END IF;
    FOR part IN
        SELECT string_agg(hex, ',') FROM (
            SELECT encode(hash, 'hex') AS hex, (row_number() OVER () - 1) / 100 AS n
            FROM deleted WHERE kind = 'a' AND revoked_at IS NULL AND expires_at > now()) live
        GROUP BY n
    LOOP
        PERFORM pg_notify('auth_access_token_changed', part);
    END LOOP;
    RETURN NULL;
END;
$$;
