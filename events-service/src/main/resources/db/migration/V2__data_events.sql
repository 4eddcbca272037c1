-- Repositories exist here as far as their data events need them: created on the first event.
CREATE TABLE repository (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    namespace  text NOT NULL,          -- lower-case namespace name
    name       text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX repository_name ON repository (namespace, name);

CREATE TABLE data_event (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    repository_id    bigint NOT NULL REFERENCES repository (id),
    kind             text NOT NULL CHECK (kind IN ('FileUpload', 'API-Request', 'Fork')),
    note             text NOT NULL,
    creator_id       bigint NOT NULL,
    creator_username text NOT NULL,
    client_id        text,
    commits_count    integer NOT NULL,
    idempotency_key  text,
    request_hash     bytea,
    -- Milliseconds, as the API shows them: since= compares what callers saw.
    created_at       timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
);
-- Newest first, per repository (and per kind): keyset-friendly, never a scan of the table.
CREATE INDEX data_event_newest ON data_event (repository_id, id DESC);
CREATE INDEX data_event_kind ON data_event (repository_id, kind, id DESC);
CREATE UNIQUE INDEX data_event_idempotency ON data_event (repository_id, creator_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;

-- An item named by its identifier, with its latest revision.
CREATE TABLE item (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    repository_id    bigint NOT NULL REFERENCES repository (id),
    identifier_id    text NOT NULL,
    identifier_type  text NOT NULL,
    identifier_agent text NOT NULL,
    revision         integer NOT NULL,
    payload          jsonb NOT NULL
);
CREATE UNIQUE INDEX item_identifier ON item (repository_id, identifier_id, identifier_type, identifier_agent);

-- One revision of one item: the payload, and the JSON Patch (RFC 6902) from the revision before.
CREATE TABLE data_commit (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id   bigint NOT NULL REFERENCES data_event (id),
    position   integer NOT NULL,
    type       text NOT NULL,
    item_id    bigint NOT NULL REFERENCES item (id),
    revision   integer NOT NULL,
    payload    jsonb NOT NULL,
    changeset  jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
);
CREATE INDEX data_commit_event ON data_commit (event_id, position);
CREATE UNIQUE INDEX data_commit_item_revision ON data_commit (item_id, revision);

-- since= filters by time.
CREATE INDEX data_event_created ON data_event (repository_id, created_at);
