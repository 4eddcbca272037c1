-- Mail to send: written in the transaction of the change it tells of (a factor added, say), so
-- that a change is never without its mail nor a mail without its change, and sent afterwards by
-- whichever replica claims it first (MailOutbox: FOR UPDATE SKIP LOCKED, then a lease), with
-- retries and backoff while the mail server is away. Sent mail is kept a while, then purged.
CREATE TABLE mail_outbox (
    id              bigserial PRIMARY KEY,
    person_id       bigint REFERENCES person (id) ON DELETE CASCADE,
    kind            text NOT NULL,
    recipient       text NOT NULL,
    subject         text NOT NULL,
    body            text NOT NULL,
    attempts        integer NOT NULL DEFAULT 0,
    -- When it may be tried (again): now for a new mail, later after a failure or while a replica
    -- holds it (its lease: a replica that dies while sending leaves it to another after that).
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error      text,
    sent_at         timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL;
CREATE INDEX mail_outbox_sent ON mail_outbox (sent_at) WHERE sent_at IS NOT NULL;
CREATE INDEX mail_outbox_person ON mail_outbox (person_id);
