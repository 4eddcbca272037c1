-- Resource servers (RFC 8707 resources other than the platform's API) that operators register
-- through the API, beside the deployment's configured ones (ziggurat.auth.resource-servers.*).
-- Each has a credential of its own (client_id, and the keyed hash of its secret, as an
-- application's) with which it introspects the tokens meant for it, and nothing else: it is no
-- application, so the token endpoint never finds it.
CREATE TABLE resource_server (
    id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    identifier            text NOT NULL UNIQUE CHECK (length(identifier) <= 2000),
    name                  text NOT NULL CHECK (length(name) <= 100),
    scopes                text[] NOT NULL,
    access_token_format   text NOT NULL CHECK (access_token_format IN ('jwt', 'opaque')),
    -- Seconds; null: the platform's access-token lifetime.
    access_token_lifetime integer CHECK (access_token_lifetime > 0),
    -- The application (its client_id) that may exchange a person's token meant for this resource
    -- (RFC 8693), when it allows exchange; null: none may.
    exchange_client_id    text,
    client_id             text NOT NULL UNIQUE,
    client_secret_hash    bytea NOT NULL,
    created_by            bigint,
    created_at            timestamptz NOT NULL DEFAULT now(),
    updated_at            timestamptz NOT NULL DEFAULT now()
);

-- Every replica keeps the registered resource servers in memory (ResourceServerRegistry) and reads
-- them again when told, at commit, that any changed, by whatever statement (the API, psql).
CREATE FUNCTION notify_resource_servers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('auth_resource_server_changed', '*');
    RETURN NULL;
END;
$$;
CREATE TRIGGER resource_servers_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON resource_server
    FOR EACH STATEMENT EXECUTE FUNCTION notify_resource_servers_changed();

-- The audit stream (V25, V30): every column but the secret's hash, of which a change alone is told
-- as secret_rotated; who made it is the transaction's ziggurat.actor_id (AuditActor).
CREATE FUNCTION audit_resource_server() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    r resource_server;
    change text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        r := OLD; change := 'resource_server.deleted';
    ELSIF TG_OP = 'INSERT' THEN
        r := NEW; change := 'resource_server.created';
    ELSE
        IF (to_jsonb(OLD) - 'updated_at') = (to_jsonb(NEW) - 'updated_at') THEN
            RETURN NULL;
        END IF;
        r := NEW;
        change := CASE WHEN OLD.client_secret_hash IS DISTINCT FROM NEW.client_secret_hash
            AND (to_jsonb(OLD) - 'updated_at' - 'client_secret_hash') = (to_jsonb(NEW) - 'updated_at' - 'client_secret_hash')
            THEN 'resource_server.secret_rotated' ELSE 'resource_server.changed' END;
    END IF;
    INSERT INTO audit_outbox (payload) VALUES (jsonb_build_object(
        'type', change, 'subject', 'resource_server/' || r.id,
        'actor_id', nullif(current_setting('ziggurat.actor_id', true), '')::bigint, 'time', now(),
        'data', jsonb_build_object('resource_server_id', r.id, 'identifier', r.identifier, 'name', r.name,
            'scopes', to_jsonb(r.scopes), 'access_token_format', r.access_token_format,
            'access_token_lifetime', r.access_token_lifetime, 'exchange_client_id', r.exchange_client_id,
            'client_id', r.client_id, 'created_by', r.created_by)));
    RETURN NULL;
END $$;
CREATE TRIGGER resource_server_audit AFTER INSERT OR UPDATE OR DELETE ON resource_server
    FOR EACH ROW EXECUTE FUNCTION audit_resource_server();
