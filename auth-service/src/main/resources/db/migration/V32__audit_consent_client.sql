-- A grant's entries in the audit stream name the application's client_id beside its id: a webhook
-- made with a person's token issued to an application answers to that grant (events-service stops
-- it when the grant is revoked, narrowed below admin, or the application deleted), and events-service
-- knows the application by the client of the token that made the webhook. An application's own
-- deletion removes its grants in the same statement, after its row: their entries carry no
-- client_id then, and its application.deleted entry (which has it) stands for them.
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
            'client_id', (SELECT a.client_id FROM application a WHERE a.id = c.application_id),
            'scopes', to_jsonb(c.scopes))));
    RETURN NULL;
END $$;
