-- The audit stream's events (V15) reach events-service in the order they were made. They did not:
-- the triggers' numbers (nextval as each row was written) followed the order transactions wrote,
-- not the order they committed, and every replica claimed its own share of the due rows of the
-- peers' outbox (FOR UPDATE SKIP LOCKED), sent them side by side, and sent a failed one again
-- after later ones. Now the audit rows are one lane, apart from the erasures and sign-outs (which
-- are still claimed side by side): under one lock for all replicas, the relay numbers the audit rows
-- it sees for the first time (seq, from audit_source_id, in the order of their ids; a row that
-- commits late gets a later number), and that number becomes the event's source_id; it then sends
-- the lowest numbers not yet delivered, one after another, and stops at the first that fails (tried
-- again after its wait, before any later one). So a number is sent only once every lower one was
-- recorded, whichever replica sends it, also after a lease ran out. The triggers number nothing any
-- more; rows numbered before keep their number.
--
-- Who made a change: a membership's is the transaction's setting ziggurat.actor_id, which every
-- change of memberships sets now, also an organization's deletion (its admin) and an account's (the
-- person), whose memberships go with them.
ALTER TABLE peer_delivery ADD COLUMN seq bigint;
UPDATE peer_delivery SET seq = (payload->>'source_id')::bigint WHERE kind = 'audit' AND payload ? 'source_id';
CREATE UNIQUE INDEX peer_delivery_audit_lane ON peer_delivery (seq) WHERE kind = 'audit' AND done_at IS NULL;
CREATE INDEX peer_delivery_audit_unnumbered ON peer_delivery (id) WHERE kind = 'audit' AND seq IS NULL AND done_at IS NULL;
-- The erasures' and sign-outs' claim passes no audit row waiting in the lane.
CREATE INDEX peer_delivery_due_others ON peer_delivery (next_attempt_at, id) WHERE done_at IS NULL AND kind <> 'audit';

CREATE OR REPLACE FUNCTION audit_account_event() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    INSERT INTO peer_delivery (person_id, username, peer, kind, payload)
    VALUES (NEW.person_id, '', 'events-service', 'audit', jsonb_build_object(
        'type', 'account.' || NEW.kind, 'subject', 'person/' || NEW.person_id,
        'actor_id', NEW.person_id, 'time', NEW.created_at,
        'data', jsonb_strip_nulls(jsonb_build_object('person_id', NEW.person_id, 'kind', NEW.kind,
            'client_address', NEW.client_address, 'device', NEW.device, 'detail', NEW.detail))));
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION audit_membership() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
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
        'type', change, 'subject', 'organization/' || m.organization_id || '/member/' || m.person_id,
        'actor_id', nullif(current_setting('ziggurat.actor_id', true), '')::bigint, 'time', now(),
        'data', jsonb_build_object('organization_id', m.organization_id, 'person_id', m.person_id, 'role', m.role,
            'state', m.state)));
    RETURN NULL;
END $$;
