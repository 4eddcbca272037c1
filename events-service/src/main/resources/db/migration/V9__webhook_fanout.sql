-- Webhook fan-out after the commit. Recording an event wrote one webhook_delivery row per
-- subscription that took it, in the event's own statement: 100 subscriptions made every append
-- 100 inserts, 300 foreign-key checks (each locking a subscription row every concurrent append
-- locks too) and 100 trigger calls. Now the event's statement writes ONE outbox row
-- (webhook_fanout) when any subscription takes the event, and a queue job fans it out after the
-- commit (WebhookFanout): the row is deleted in the transaction that inserts its deliveries, so an
-- event recorded is fanned out exactly once, by whichever replica claims it, even if the one that
-- recorded it dies right after the commit. Pending deliveries queued before stay as they are.

-- id: the event's (one row per event). A repository's rows are a lane, fanned out in event order,
-- one transaction at a time, so a subscription's deliveries of a repository get ids in event order.
CREATE TABLE webhook_fanout (
    id              bigint PRIMARY KEY REFERENCES data_event (id) ON DELETE CASCADE,
    repository_id   bigint NOT NULL,
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_fanout_lanes ON webhook_fanout (repository_id, id);
CREATE TRIGGER webhook_fanout_wake AFTER INSERT ON webhook_fanout
    FOR EACH ROW EXECUTE FUNCTION queue_wake('queue_events_fanout');

-- Fanning out twice (a replica whose lease ran out, say) never queues a delivery twice. It
-- replaces the index on event_id alone (this one's first column serves the same look-ups).
CREATE UNIQUE INDEX webhook_delivery_once ON webhook_delivery (event_id, subscription_id);
DROP INDEX webhook_delivery_event;
-- A fan-out inserts a delivery per subscription and event; each foreign-key check is a query of
-- its own, and the event's was a third of the cost. The fan-out reads the event in the same
-- statement, and an event goes only with its namespace's data (PersonDataRepository), whose
-- subscriptions go first and take their deliveries with them (the subscription's key, kept).
ALTER TABLE webhook_delivery DROP CONSTRAINT webhook_delivery_event_id_fkey;

-- A fan-out wakes the delivery workers once, itself (WebhookFanout): the trigger now wakes them
-- for the audit stream's deliveries, which its events still queue in their own statement.
DROP TRIGGER webhook_delivery_wake ON webhook_delivery;
CREATE TRIGGER webhook_delivery_wake AFTER INSERT ON webhook_delivery
    FOR EACH ROW WHEN (NEW.audit_event_id IS NOT NULL) EXECUTE FUNCTION queue_wake('queue_events_webhooks');

-- Which events a data subscription takes, as it was when each event was recorded, since its
-- fan-out runs later: a subscription takes the events recorded while it queued (made and not
-- paused) with the kinds it had then. Each span is such a time, in event ids: the events after
-- after_event and up to until_event (null: still open). An event answered before a subscription
-- was made, resumed or changed had its id before the change read the sequence, so it falls on the
-- old side; an event under way meanwhile falls on one side or the other, as either order is true.
CREATE TABLE webhook_subscription_span (
    subscription_id bigint NOT NULL REFERENCES webhook_subscription (id) ON DELETE CASCADE,
    kinds           text[] NOT NULL,
    after_event     bigint NOT NULL,
    until_event     bigint,
    CHECK (until_event IS NULL OR until_event >= after_event)
);
CREATE UNIQUE INDEX webhook_subscription_span_open ON webhook_subscription_span (subscription_id) WHERE until_event IS NULL;
CREATE INDEX webhook_subscription_span_of ON webhook_subscription_span (subscription_id, after_event);

-- Every change of a data subscription's state or kinds, by whatever path (the API, the platform's
-- disabling, a migration), keeps its spans: paused or other kinds close the open span at the
-- newest event id given out so far; queueing again (or with other kinds) opens one from there.
-- Active and disabled both queue (a disabled webhook's events wait for it to be active again).
CREATE FUNCTION webhook_subscription_spans() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    newest bigint := coalesce(pg_sequence_last_value(pg_get_serial_sequence('data_event', 'id')), 0);
BEGIN
    IF NEW.stream <> 'data' THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'UPDATE' THEN
        IF (OLD.state = 'paused') = (NEW.state = 'paused') AND OLD.kinds = NEW.kinds THEN
            RETURN NULL;
        END IF;
        UPDATE webhook_subscription_span SET until_event = greatest(newest, after_event)
         WHERE subscription_id = NEW.id AND until_event IS NULL;
    END IF;
    IF NEW.state <> 'paused' THEN
        INSERT INTO webhook_subscription_span (subscription_id, kinds, after_event) VALUES (NEW.id, NEW.kinds, newest);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER webhook_subscription_spans AFTER INSERT OR UPDATE OF state, kinds ON webhook_subscription
    FOR EACH ROW EXECUTE FUNCTION webhook_subscription_spans();

-- The subscriptions of today: queueing from now on (the events recorded so far have their deliveries).
INSERT INTO webhook_subscription_span (subscription_id, kinds, after_event)
SELECT id, kinds, coalesce(pg_sequence_last_value(pg_get_serial_sequence('data_event', 'id')), 0)
  FROM webhook_subscription WHERE stream = 'data' AND state <> 'paused';
