-- A recovery link is mailed to the sign-in address the person had when it was asked. When that
-- address changes (on the account page, through the API, or any later path), every link of the
-- person not used yet is marked used, in the transaction of the change: a link sent to an address
-- that is no longer the person's cannot set the password. A link asked afterwards goes to the new
-- address. The function keeps the schema it was made in (search_path FROM CURRENT), whatever the
-- changing session's is.
CREATE FUNCTION end_recovery_links_on_address_change() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    UPDATE password_recovery SET used_at = now() WHERE person_id = NEW.id AND used_at IS NULL;
    RETURN NULL;
END $$;
CREATE TRIGGER person_email_ends_recovery_links AFTER UPDATE OF email ON person
    FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email) EXECUTE FUNCTION end_recovery_links_on_address_change();
