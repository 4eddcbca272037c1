-- The outboxes are worked by platform-rest's queue, whose workers poll and are also woken: each row
-- that joins an outbox notifies its queue's channel in the transaction that writes it (so at
-- commit, and never for a change rolled back), whichever code or trigger wrote it. The workers
-- LISTEN on a session of their own straight to the server; a lost notification only waits for the
-- next poll. pg_notify sends one notification per channel and transaction, however many rows.
CREATE FUNCTION queue_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(TG_ARGV[0], '');
    RETURN NULL;
END $$;

CREATE TRIGGER mail_outbox_wake AFTER INSERT ON mail_outbox
    FOR EACH STATEMENT EXECUTE FUNCTION queue_wake('queue_directory_mail');
-- The peers' outbox holds two queues: erasures and sign-outs, and the audit stream's lane.
CREATE TRIGGER peer_delivery_wake AFTER INSERT ON peer_delivery
    FOR EACH ROW WHEN (NEW.kind <> 'audit') EXECUTE FUNCTION queue_wake('queue_directory_peers');
CREATE TRIGGER peer_delivery_audit_wake AFTER INSERT ON peer_delivery
    FOR EACH ROW WHEN (NEW.kind = 'audit') EXECUTE FUNCTION queue_wake('queue_directory_audit');
