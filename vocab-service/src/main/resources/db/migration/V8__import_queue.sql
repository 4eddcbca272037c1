-- Import jobs are claimed by platform-rest's queue. A job's due time is its lease: a claim moves it
-- past staleAfter (ziggurat.vocab.imports.stale-after), and the running import moves it on as it
-- beats; a job whose replica stopped beating is due again then, and claimed again. That replaces
-- heartbeat_at, which is no longer written (the replicas of the previous release, during a rolling
-- update, read it; drop it once none is left).
ALTER TABLE import_job ADD COLUMN next_attempt_at timestamptz NOT NULL DEFAULT now();
-- A job running now keeps its replica's lease: taken for gone when it would have been before (the
-- default of stale-after, two minutes, after its last beat). Queued jobs are due now.
UPDATE import_job SET next_attempt_at = heartbeat_at + interval '2 minutes' WHERE state = 'running' AND heartbeat_at IS NOT NULL;
DROP INDEX import_job_open;
CREATE INDEX import_job_due ON import_job (next_attempt_at, id) WHERE state IN ('queued', 'running');

-- A new job wakes every replica's worker, in the transaction that queues it (so at commit); a lost
-- notification only waits for the next poll.
CREATE FUNCTION queue_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(TG_ARGV[0], '');
    RETURN NULL;
END $$;
CREATE TRIGGER import_job_wake AFTER INSERT ON import_job FOR EACH STATEMENT EXECUTE FUNCTION queue_wake('queue_vocab_imports');
