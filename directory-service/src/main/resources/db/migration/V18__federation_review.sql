-- Third review, part 2.
--
-- Each link records the issuer that vouched for it (an OpenID Connect provider's issuer, GitHub's
-- API base): a provider whose issuer an operator replaced is another provider, whose subjects sign
-- in nobody linked through the old one. A link from before this records '' (not known): the first
-- sign-in through its provider records the issuer then.
ALTER TABLE linked_identity ADD COLUMN issuer text NOT NULL DEFAULT '';
ALTER TABLE linked_identity DROP CONSTRAINT linked_identity_provider_subject_key;
ALTER TABLE linked_identity ADD CONSTRAINT linked_identity_provider_issuer_subject_key UNIQUE (provider, issuer, subject);
-- An ORCID iD is one person's: looked up when a link would keep one.
CREATE INDEX linked_identity_orcid ON linked_identity (orcid) WHERE orcid IS NOT NULL;

-- A new account through a provider with an address the provider did not verify waits for that
-- address to be proven: nothing exists until the mailed link is used (24 hours), so the address
-- is taken by no unproven account. The token's SHA-256 hash only.
CREATE TABLE identity_sign_up (
    token_hash   bytea PRIMARY KEY,
    username     text NOT NULL,
    display_name text NOT NULL,
    email        text NOT NULL,
    identity     jsonb NOT NULL,
    expires_at   timestamptz NOT NULL,
    used_at      timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX identity_sign_up_expires ON identity_sign_up (expires_at);

-- Whether the account's owner ever proved an address of it (a confirmed address, or a recovery
-- link used): until then, everything in the account was set up by someone who proved nothing, and
-- the first recovery link used removes it (factors, passkeys, recovery codes, linked identities).
ALTER TABLE person ADD COLUMN address_proven boolean NOT NULL DEFAULT false;
UPDATE person p SET address_proven = true WHERE p.email_verified_at IS NOT NULL
    OR EXISTS (SELECT 1 FROM account_event e WHERE e.person_id = p.id AND e.kind IN ('email_verified', 'password_reset'));
CREATE FUNCTION person_address_proven() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    NEW.address_proven := NEW.address_proven OR NEW.email_verified_at IS NOT NULL;
    RETURN NEW;
END
$$;
CREATE TRIGGER person_address_proven BEFORE INSERT OR UPDATE OF email_verified_at, address_proven ON person
    FOR EACH ROW EXECUTE FUNCTION person_address_proven();
