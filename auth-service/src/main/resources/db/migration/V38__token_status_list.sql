-- Token Status List (draft-ietf-oauth-status-list): every JWT access token names a bit in a list
-- of 2^20 (1,048,576) served at /oauth/status-lists/<list>; the bit is 1 (INVALID) once the token
-- is revoked or its row goes, until the token expires.

-- Indices of all lists, one sequence: list = n / 2^20, idx = n % 2^20. Each replica takes a block
-- of 1,024 at a time (StatusLists), so two replicas never hand out the same index; a block never
-- spans two lists, since 1,024 divides 2^20. What a restart leaves unused stays 0 (VALID) forever.
CREATE SEQUENCE token_status_index AS bigint MINVALUE 0 START 0 INCREMENT 1024;

-- An access token's place in the lists; null for opaque tokens, which no list describes. The
-- checks hold for new rows at once; NOT VALID spares a scan of the existing ones (all null).
ALTER TABLE token
    ADD COLUMN status_list integer,
    ADD COLUMN status_idx integer,
    ADD CONSTRAINT token_status_pair CHECK ((status_list IS NULL) = (status_idx IS NULL)) NOT VALID,
    ADD CONSTRAINT token_status_idx_range CHECK (status_idx BETWEEN 0 AND 1048575) NOT VALID;

-- The 1 bits: kept here and not read from the token table, because a token's row may go before it
-- expires (its application deleted, its person's account erased) and its bit must stay 1 until
-- then. Written by the triggers below, whatever statement changed the token (a revocation, a
-- withdrawn grant, a sign-out, a cascade, SQL by hand); the purge removes what expired. A list is
-- built from one index range scan of its primary key.
CREATE TABLE token_status_invalid (
    list       integer NOT NULL,
    idx        integer NOT NULL,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (list, idx)
);
CREATE INDEX token_status_invalid_expires ON token_status_invalid (expires_at);

CREATE FUNCTION token_status_revoked() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    IF NEW.revoked_at IS NOT NULL THEN
        INSERT INTO token_status_invalid (list, idx, expires_at) VALUES (NEW.status_list, NEW.status_idx, NEW.expires_at)
            ON CONFLICT (list, idx) DO UPDATE SET expires_at = greatest(token_status_invalid.expires_at, EXCLUDED.expires_at);
    ELSE
        -- Revoked by mistake and set right by hand: valid again.
        DELETE FROM token_status_invalid WHERE list = NEW.status_list AND idx = NEW.status_idx;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER token_status_revoked AFTER UPDATE OF revoked_at ON token FOR EACH ROW
    WHEN (NEW.status_idx IS NOT NULL AND OLD.revoked_at IS DISTINCT FROM NEW.revoked_at)
    EXECUTE FUNCTION token_status_revoked();

-- A deleted row that had not expired: its bit is 1 until it would have. One statement may delete a
-- million rows (an application's cascade; the purge, whose rows have all expired): one INSERT.
CREATE FUNCTION token_status_deleted() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    INSERT INTO token_status_invalid (list, idx, expires_at)
        SELECT status_list, status_idx, expires_at FROM deleted
        WHERE status_idx IS NOT NULL AND expires_at > now()
        ON CONFLICT (list, idx) DO NOTHING;
    RETURN NULL;
END;
$$;

CREATE TRIGGER token_status_deleted AFTER DELETE ON token REFERENCING OLD TABLE AS deleted
    FOR EACH STATEMENT EXECUTE FUNCTION token_status_deleted();
