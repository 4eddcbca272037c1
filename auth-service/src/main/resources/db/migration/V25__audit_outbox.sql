-- The platform's audit stream (events-service) hears of changes to applications, and of what people
-- grant them (consent: granted, changed, revoked), through this outbox: a trigger writes a row in the transaction of the change, whichever code made it, with
-- the event (its source_id numbered here, so that a delivery sent twice is recorded once); every
-- replica relays what is due (AuditRelay: FOR UPDATE SKIP LOCKED, then a lease), retrying with a
-- doubling wait while events-service is away. Delivered rows are purged after a day. A change of
-- the secret says so, never what it is; an update that changes only updated_at is no change.
-- Who made the change is the transaction's setting ziggurat.actor_id when the code set it. The
-- functions keep the schema they were made in (search_path FROM CURRENT): a change made by a
-- session whose search_path does not name it (an operator's psql, say) is told too.
CREATE SEQUENCE audit_source_id;

CREATE TABLE audit_outbox (
    id              bigserial PRIMARY KEY,
    payload         jsonb NOT NULL,
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error      text,
    done_at         timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_outbox_due ON audit_outbox (next_attempt_at) WHERE done_at IS NULL;
CREATE INDEX audit_outbox_done ON audit_outbox (done_at) WHERE done_at IS NOT NULL;

CREATE FUNCTION audit_application() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
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
        'source_id', nextval('audit_source_id'), 'type', change, 'subject', 'application/' || a.id,
        'actor_id', nullif(current_setting('ziggurat.actor_id', true), '')::bigint, 'time', now(),
        'data', jsonb_build_object('application_id', a.id, 'client_id', a.client_id, 'name', a.name,
            'owner_id', a.owner_id, 'confidential', a.confidential, 'redirect_uris', to_jsonb(a.redirect_uris),
            'scopes', to_jsonb(a.scopes))));
    RETURN NULL;
END $$;
CREATE TRIGGER application_audit AFTER INSERT OR UPDATE OR DELETE ON application FOR EACH ROW EXECUTE FUNCTION audit_application();

CREATE FUNCTION audit_consent() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
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
        'source_id', nextval('audit_source_id'), 'type', change,
        'subject', 'person/' || c.person_id || '/application/' || c.application_id,
        'actor_id', nullif(current_setting('ziggurat.actor_id', true), '')::bigint, 'time', now(),
        'data', jsonb_build_object('person_id', c.person_id, 'application_id', c.application_id,
            'scopes', to_jsonb(c.scopes))));
    RETURN NULL;
END $$;
CREATE TRIGGER consent_audit AFTER INSERT OR UPDATE OR DELETE ON consent FOR EACH ROW EXECUTE FUNCTION audit_consent();
