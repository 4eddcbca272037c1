-- Exports and imports walk a scheme's concepts by id.
CREATE INDEX concept_scheme_id ON concept (scheme_id, id);

-- A SKOS import is a job: the document is kept with it, so an accepted import survives a restart
-- of the service and is carried out by whichever replica claims it first.
CREATE TABLE import_job (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    scheme_id       bigint NOT NULL REFERENCES scheme (id) ON DELETE CASCADE,
    format          text NOT NULL,                 -- a media type: text/turtle, application/rdf+xml, application/ld+json
    document        bytea,                         -- emptied once the job has ended
    requester_id    bigint NOT NULL,
    requester_username text NOT NULL,
    state           text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'succeeded', 'failed')),
    concepts_total  integer,
    concepts_done   integer NOT NULL DEFAULT 0,
    concepts_created integer NOT NULL DEFAULT 0,
    concepts_replaced integer NOT NULL DEFAULT 0,
    errors          jsonb NOT NULL DEFAULT '[]',
    warnings        jsonb NOT NULL DEFAULT '[]',
    created_at      timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
    started_at      timestamptz,
    heartbeat_at    timestamptz,
    attempts        integer NOT NULL DEFAULT 0,    -- claims so far; a job that keeps stopping is given up
    finished_at     timestamptz
);
CREATE INDEX import_job_scheme ON import_job (scheme_id, id);
-- Claiming: queued jobs, and running ones whose replica stopped beating.
CREATE INDEX import_job_open ON import_job (state, heartbeat_at) WHERE state IN ('queued', 'running');
