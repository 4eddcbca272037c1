-- Deleting an account: the directory forgets the person in one transaction (their row and all that
-- cascades from it; organizations only they were an active member of; their name retired, as a
-- deleted organization's, so that nobody else ever reads or writes under it), and records here one
-- erasure per service that holds data about them. Every replica delivers what is due (FOR UPDATE
-- SKIP LOCKED, then a lease), retrying with backoff until the service answers that it is done;
-- each service's erasure is idempotent, so a delivery repeated after a crash does no harm.
CREATE TABLE person_erasure (
    id              bigserial PRIMARY KEY,
    person_id       bigint NOT NULL,           -- no foreign key: the person is gone
    username        text NOT NULL,
    peer            text NOT NULL,
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error      text,
    done_at         timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (person_id, peer)
);
CREATE INDEX person_erasure_due ON person_erasure (next_attempt_at) WHERE done_at IS NULL;

-- A deleted person's work in others' namespaces is credited to "ghost": nobody may take the name.
INSERT INTO namespace (name_key, kind, retired_at) VALUES ('ghost', 'retired', now()) ON CONFLICT (name_key) DO NOTHING;
