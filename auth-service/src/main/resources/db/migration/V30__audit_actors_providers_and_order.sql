-- The audit stream (V25), completed: every entry names who made the change, an application's
-- changes tell every setting it has, the identity providers operators manage are told too, and the
-- entries reach events-service in the order they were made.
--
-- Who: the code that writes an application, a grant or a provider names the person in the same
-- transaction (set_config('ziggurat.actor_id', …, true): AuditActor), and the triggers read it: an
-- application's owner (created, changed, secret rotated, deleted, and the grants that go with it),
-- the operator who verifies one or manages a provider, the person who grants, changes or revokes
-- their own grant (or is erased). Null only for the platform's own change (its configured gateway
-- client, written at start) and for a change made outside the service (an operator's psql).
--
-- Order: the triggers' numbers (nextval as each row was written) followed the order transactions
-- wrote, not the order they committed, and every replica claimed its own share of the due rows
-- (FOR UPDATE SKIP LOCKED), sent them side by side, and sent a failed one again after later ones.
-- Now the outbox is one lane: under one lock for all replicas, the relay numbers the rows it sees
-- for the first time (seq, from audit_source_id, in the order of their ids; a row that commits late
-- gets a later number), and that number becomes the event's source_id; it then sends the lowest
-- numbers not yet delivered, one after another, and stops at the first that fails (tried again
-- after its wait, before any later one). So a number is sent only once every lower one was
-- recorded, whichever replica sends it, also after a lease ran out: events-service records each
-- source's events in the order of their numbers. The triggers number nothing any more (a row's
-- source_id is set when the relay numbers it); rows numbered before keep their number.
ALTER TABLE audit_outbox ADD COLUMN seq bigint;
UPDATE audit_outbox SET seq = (payload->>'source_id')::bigint WHERE payload ? 'source_id';
CREATE UNIQUE INDEX audit_outbox_lane ON audit_outbox (seq) WHERE done_at IS NULL;
CREATE INDEX audit_outbox_unnumbered ON audit_outbox (id) WHERE seq IS NULL AND done_at IS NULL;

-- Every column of the application, but its secrets (the hashes of its secret and registration
-- token: said, never shown) and the registration's descriptive metadata (only how it
-- authenticates and which grants it registered). AuditOutboxTest holds every column to this.
CREATE OR REPLACE FUNCTION audit_application() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    a application;
    change text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        a := OLD; change := 'application.deleted';
    ELSIF TG_OP = 'INSERT' THEN
        a := NEW; change := 'application.created';
    ELSE
        IF (to_jsonb(OLD) - 'updated_at') = (to_jsonb(NEW) - 'updated_at') THEN
            RETURN NULL;
        END IF;
        a := NEW;
        change := CASE WHEN OLD.client_secret_hash IS DISTINCT FROM NEW.client_secret_hash
            AND (to_jsonb(OLD) - 'updated_at' - 'client_secret_hash') = (to_jsonb(NEW) - 'updated_at' - 'client_secret_hash')
            THEN 'application.secret_rotated' ELSE 'application.changed' END;
    END IF;
    INSERT INTO audit_outbox (payload) VALUES (jsonb_build_object(
        'type', change, 'subject', 'application/' || a.id,
        'actor_id', nullif(current_setting('ziggurat.actor_id', true), '')::bigint, 'time', now(),
        'data', jsonb_build_object('application_id', a.id, 'client_id', a.client_id, 'name', a.name,
            'owner_id', a.owner_id, 'confidential', a.confidential, 'redirect_uris', to_jsonb(a.redirect_uris),
            'scopes', to_jsonb(a.scopes), 'verified', a.verified, 'password_grant', a.password_grant,
            'token_exchange', a.token_exchange, 'access_token_format', a.access_token_format,
            'dpop_bound_access_tokens', a.dpop_bound_access_tokens, 'introspection', a.introspection,
            'post_logout_redirect_uris', to_jsonb(a.post_logout_redirect_uris),
            'id_token_signed_response_alg', a.id_token_signed_response_alg,
            'require_pushed_authorization_requests', a.require_pushed_authorization_requests,
            'refresh_token_absolute_lifetime', a.refresh_token_absolute_lifetime,
            'registered', a.registration_token_hash IS NOT NULL,
            'token_endpoint_auth_method', a.registration_metadata->'token_endpoint_auth_method',
            'grant_types', a.registration_metadata->'grant_types')));
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION audit_consent() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    c consent;
    change text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        c := OLD; change := 'authorization.revoked';
    ELSIF TG_OP = 'INSERT' THEN
        c := NEW; change := 'authorization.granted';
    ELSE
        IF OLD.scopes = NEW.scopes THEN
            RETURN NULL;
        END IF;
        c := NEW; change := 'authorization.changed';
    END IF;
    INSERT INTO audit_outbox (payload) VALUES (jsonb_build_object(
        'type', change, 'subject', 'person/' || c.person_id || '/application/' || c.application_id,
        'actor_id', nullif(current_setting('ziggurat.actor_id', true), '')::bigint, 'time', now(),
        'data', jsonb_build_object('person_id', c.person_id, 'application_id', c.application_id,
            'scopes', to_jsonb(c.scopes))));
    RETURN NULL;
END $$;

-- The identity providers operators add, change and remove through the API (V22): every column but
-- the sealed client secret, of which only whether there is one (a change of it alone is told as
-- secret_rotated). The deployment's configured providers are no change made here.
CREATE FUNCTION audit_upstream_provider() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
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
            'token_endpoint', p.token_endpoint, 'api_base', p.api_base)));
    RETURN NULL;
END $$;
CREATE TRIGGER upstream_provider_audit AFTER INSERT OR UPDATE OR DELETE ON upstream_provider
    FOR EACH ROW EXECUTE FUNCTION audit_upstream_provider();
