-- Scopes only an application the operators verified may hold (ScopeNames.FIRST_PARTY_ONLY:
-- account): when an application loses its verified mark (an operator takes it away, or a new name
-- or new redirect URIs do), every live token of it that carries one is revoked in the same
-- transaction, refresh tokens included, so the mark's end is the access's end. The token table's
-- own trigger tells every replica's memory of live tokens.
CREATE FUNCTION unverified_application_revokes() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE token SET revoked_at = now(), updated_at = now()
    WHERE application_id = NEW.id AND revoked_at IS NULL AND scopes && ARRAY['account']::text[];
    RETURN NULL;
END
$$;

CREATE TRIGGER application_unverified AFTER UPDATE OF verified ON application FOR EACH ROW
    WHEN (OLD.verified AND NOT NEW.verified) EXECUTE FUNCTION unverified_application_revokes();
