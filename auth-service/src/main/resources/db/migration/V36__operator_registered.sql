-- An application registered by one of the platform's operators acting as such (their own token,
-- or the deployment's initial access token for registration): trusted to hear prompt=none's answer
-- without a page (OpenID Connect Core §3.1.2.1), as a verified one is. Its owner's change of where
-- people are sent ends that trust, as it ends the verified mark.
ALTER TABLE application ADD COLUMN operator_registered boolean NOT NULL DEFAULT false;

-- The audit stream tells every setting of an application (V30), this one too. What an entry says
-- of an application is a function of its own from now on, so that a new column replaces only it.
CREATE FUNCTION audit_application_data(a application) RETURNS jsonb LANGUAGE sql STABLE SET search_path FROM CURRENT AS $$
    SELECT jsonb_build_object('application_id', a.id, 'client_id', a.client_id, 'name', a.name,
        'owner_id', a.owner_id, 'confidential', a.confidential, 'redirect_uris', to_jsonb(a.redirect_uris),
        'scopes', to_jsonb(a.scopes), 'verified', a.verified, 'operator_registered', a.operator_registered,
        'password_grant', a.password_grant,
        'token_exchange', a.token_exchange, 'access_token_format', a.access_token_format,
        'dpop_bound_access_tokens', a.dpop_bound_access_tokens, 'introspection', a.introspection,
        'post_logout_redirect_uris', to_jsonb(a.post_logout_redirect_uris),
        'id_token_signed_response_alg', a.id_token_signed_response_alg,
        'require_pushed_authorization_requests', a.require_pushed_authorization_requests,
        'refresh_token_absolute_lifetime', a.refresh_token_absolute_lifetime,
        'registered', a.registration_token_hash IS NOT NULL,
        'token_endpoint_auth_method', a.registration_metadata->'token_endpoint_auth_method',
        'grant_types', a.registration_metadata->'grant_types')
$$;

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
        'data', audit_application_data(a)));
    RETURN NULL;
END $$;
