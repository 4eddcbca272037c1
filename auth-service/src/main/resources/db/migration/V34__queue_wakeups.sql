-- The audit outbox is relayed by platform-rest's queue, whose workers poll and are also woken: the
-- triggers' rows notify the queue's channel in the transaction of the change (so at commit, and
-- never for a change rolled back). The workers LISTEN on a session of their own straight to the
-- server; a lost notification only waits for the next poll.
CREATE FUNCTION queue_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(TG_ARGV[0], '');
    RETURN NULL;
END $$;
CREATE TRIGGER audit_outbox_wake AFTER INSERT ON audit_outbox FOR EACH STATEMENT EXECUTE FUNCTION queue_wake('queue_auth_audit');
