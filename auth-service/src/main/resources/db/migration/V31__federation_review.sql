-- Third review, part 2: sign-in through other providers.
--
-- The eduperson_assurance values a provider an operator added may assert (space-separated; none
-- by default), as a configured provider's ziggurat.auth.federation.providers.<id>.assurance.
ALTER TABLE upstream_provider ADD COLUMN assurance text;

-- Each provider has its own redirect URI (RFC 9700 §4.4.2): the one an attempt sent, so that its
-- answer is taken only at that URI, and the code exchanged with it. Null: an attempt begun before,
-- whose answer comes to the URI every provider shared then.
ALTER TABLE federation_attempt ADD COLUMN redirect_uri text;

-- What the provider of a sign-in asserted (eduperson_assurance, as its operator allows): the
-- session's tokens carry it, and only while the session lasts; a sign-in that waits for the
-- person's own second factor keeps it until then.
ALTER TABLE login_session ADD COLUMN assurance text[];
ALTER TABLE pending_sign_in ADD COLUMN first_assurance text[];

-- The audit stream tells every field of a provider (V30): its assurance list too.
CREATE OR REPLACE FUNCTION audit_upstream_provider() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    p upstream_provider;
    change text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        p := OLD; change := 'identity_provider.deleted';
    ELSIF TG_OP = 'INSERT' THEN
        p := NEW; change := 'identity_provider.created';
    ELSE
        IF (to_jsonb(OLD) - 'updated_at') = (to_jsonb(NEW) - 'updated_at') THEN
            RETURN NULL;
        END IF;
        p := NEW;
        change := CASE WHEN OLD.client_secret_sealed IS DISTINCT FROM NEW.client_secret_sealed
            AND (to_jsonb(OLD) - 'updated_at' - 'client_secret_sealed') = (to_jsonb(NEW) - 'updated_at' - 'client_secret_sealed')
            THEN 'identity_provider.secret_rotated' ELSE 'identity_provider.changed' END;
    END IF;
    INSERT INTO audit_outbox (payload) VALUES (jsonb_build_object(
        'type', change, 'subject', 'identity_provider/' || p.id,
        'actor_id', nullif(current_setting('ziggurat.actor_id', true), '')::bigint, 'time', now(),
        'data', jsonb_build_object('provider_id', p.id, 'kind', p.kind, 'display_name', p.display_name,
            'issuer', p.issuer, 'client_id', p.client_id, 'client_secret_set', p.client_secret_sealed IS NOT NULL,
            'client_auth', p.client_auth, 'scopes', p.scopes, 'orcid_claim', p.orcid_claim,
            'new_accounts', p.new_accounts, 'authorization_endpoint', p.authorization_endpoint,
            'token_endpoint', p.token_endpoint, 'api_base', p.api_base, 'assurance', p.assurance)));
    RETURN NULL;
END $$;
