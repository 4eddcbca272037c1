-- The platform's audit stream (events-service) hears of the directory's security-relevant changes
-- through the peers' outbox: every change to a person's security (the rows of the security log:
-- sign-ins, factors, password, address, applications given or refused access) and every change of
-- a membership. Triggers write the outbox row in the transaction of the change, whichever code
-- made it, so none is missed; each row carries the event (its source_id numbered here, so that a
-- delivery sent twice is recorded once). Who made a membership change is the transaction's
-- setting ziggurat.actor_id (OrganizationRepository sets it), null when unknown. The functions keep
-- the schema they were made in (search_path FROM CURRENT), whatever the changing session's is.
ALTER TABLE peer_delivery DROP CONSTRAINT peer_delivery_kind_check;
ALTER TABLE peer_delivery ADD CONSTRAINT peer_delivery_kind_check CHECK (kind IN ('erasure', 'sign_out', 'audit'));
ALTER TABLE peer_delivery ADD COLUMN payload jsonb;
CREATE INDEX peer_delivery_done_audit ON peer_delivery (done_at) WHERE kind = 'audit' AND done_at IS NOT NULL;

CREATE SEQUENCE audit_source_id;

CREATE FUNCTION audit_account_event() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    INSERT INTO peer_delivery (person_id, username, peer, kind, payload)
    VALUES (NEW.person_id, '', 'events-service', 'audit', jsonb_build_object(
        'source_id', nextval('audit_source_id'), 'type', 'account.' || NEW.kind, 'subject', 'person/' || NEW.person_id,
        'actor_id', NEW.person_id, 'time', NEW.created_at,
        'data', jsonb_strip_nulls(jsonb_build_object('person_id', NEW.person_id, 'kind', NEW.kind,
            'client_address', NEW.client_address, 'device', NEW.device, 'detail', NEW.detail))));
    RETURN NULL;
END $$;
CREATE TRIGGER account_event_audit AFTER INSERT ON account_event FOR EACH ROW EXECUTE FUNCTION audit_account_event();

CREATE FUNCTION audit_membership() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    m membership;
    change text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        m := OLD; change := 'membership.removed';
    ELSIF TG_OP = 'INSERT' THEN
        m := NEW; change := 'membership.added';
    ELSE
        IF OLD.role = NEW.role AND OLD.state = NEW.state THEN
            RETURN NULL;
        END IF;
        m := NEW; change := 'membership.changed';
    END IF;
    INSERT INTO peer_delivery (person_id, username, peer, kind, payload)
    VALUES (m.person_id, '', 'events-service', 'audit', jsonb_build_object(
        'source_id', nextval('audit_source_id'), 'type', change,
        'subject', 'organization/' || m.organization_id || '/member/' || m.person_id,
        'actor_id', nullif(current_setting('ziggurat.actor_id', true), '')::bigint, 'time', now(),
        'data', jsonb_build_object('organization_id', m.organization_id, 'person_id', m.person_id, 'role', m.role,
            'state', m.state)));
    RETURN NULL;
END $$;
CREATE TRIGGER membership_audit AFTER INSERT OR UPDATE OR DELETE ON membership FOR EACH ROW EXECUTE FUNCTION audit_membership();
