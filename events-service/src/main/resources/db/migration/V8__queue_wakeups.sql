-- Webhook deliveries and the notices owed to a disabled webhook's admins are worked by
-- platform-rest's queue. A notice's claims are counted (its backoff, and what tells a replica whose
-- lease ran out that another has taken it over), and cleared with the notice.
ALTER TABLE webhook_subscription ADD COLUMN notice_attempts integer NOT NULL DEFAULT 0;

-- The queue's workers poll and are also woken: what becomes owed notifies its queue's channel in
-- the transaction that makes it so (at commit, never for a change rolled back). The workers LISTEN
-- on a session of their own straight to the server; a lost notification only waits for the next
-- poll. pg_notify sends one notification per channel and transaction, however many rows.
CREATE FUNCTION queue_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(TG_ARGV[0], '');
    RETURN NULL;
END $$;

-- A delivery queued (row by row: an event with no subscription to send it to wakes nobody), queued
-- again, or free to go again because its webhook is active again.
CREATE TRIGGER webhook_delivery_wake AFTER INSERT ON webhook_delivery
    FOR EACH ROW EXECUTE FUNCTION queue_wake('queue_events_webhooks');
CREATE TRIGGER webhook_delivery_redelivery_wake AFTER UPDATE OF state ON webhook_delivery
    FOR EACH ROW WHEN (OLD.state <> 'pending' AND NEW.state = 'pending') EXECUTE FUNCTION queue_wake('queue_events_webhooks');
CREATE TRIGGER webhook_subscription_active_wake AFTER UPDATE OF state ON webhook_subscription
    FOR EACH ROW WHEN (OLD.state <> 'active' AND NEW.state = 'active') EXECUTE FUNCTION queue_wake('queue_events_webhooks');
-- A notice owed.
CREATE TRIGGER webhook_notice_wake AFTER UPDATE OF notice_due_at ON webhook_subscription
    FOR EACH ROW WHEN (OLD.notice_due_at IS NULL AND NEW.notice_due_at IS NOT NULL)
    EXECUTE FUNCTION queue_wake('queue_events_notices');
