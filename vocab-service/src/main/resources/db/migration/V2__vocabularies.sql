CREATE TABLE scheme (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    namespace    text NOT NULL,             -- lower-case namespace name
    slug         text NOT NULL,
    abbr         text NOT NULL,
    title        text NOT NULL,
    definition   text NOT NULL DEFAULT '',
    default_language text NOT NULL DEFAULT 'eng',
    creator_id   bigint NOT NULL,
    creator_username text NOT NULL,
    concept_counter integer NOT NULL DEFAULT 0,   -- the second block of concept ids
    created_at   timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
    updated_at   timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
);
CREATE UNIQUE INDEX scheme_slug ON scheme (namespace, slug);

CREATE TABLE concept (
    id          text PRIMARY KEY,               -- 8-4-4-4 hex blocks; the second is the scheme's counter
    scheme_id   bigint NOT NULL REFERENCES scheme (id) ON DELETE CASCADE,
    status      text NOT NULL CHECK (status IN ('Unstable', 'Testing', 'Stable')),
    creator_id  bigint NOT NULL,
    creator_username text NOT NULL,
    contributors text[] NOT NULL DEFAULT '{}', -- usernames of everyone who changed it
    created_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
    updated_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
);
-- Lists by update time (since=, sort=), keyset-friendly.
CREATE INDEX concept_scheme_updated ON concept (scheme_id, updated_at, id);

CREATE TABLE label (
    concept_id  text NOT NULL REFERENCES concept (id) ON DELETE CASCADE,
    position    integer NOT NULL,
    type        text NOT NULL CHECK (type IN ('Preferred', 'Alternative', 'Hidden')),
    body        text NOT NULL,
    language    text NOT NULL,                 -- ISO 639-2/T code
    abbreviation boolean NOT NULL DEFAULT false,
    vernacular  text NOT NULL DEFAULT 'Undetermined' CHECK (vernacular IN ('Vernacular', 'Other', 'Undetermined')),
    historical  text NOT NULL DEFAULT 'Unknown'
        CHECK (historical IN ('Current', 'Historical', 'Both', 'Unknown', 'NotApplicable')),
    PRIMARY KEY (concept_id, position)
);
-- SKOS: a label body once per concept and language; at most one Preferred label per language.
CREATE UNIQUE INDEX label_body ON label (concept_id, language, body);
CREATE UNIQUE INDEX label_preferred ON label (concept_id, language) WHERE type = 'Preferred';

CREATE TABLE note (
    concept_id  text NOT NULL REFERENCES concept (id) ON DELETE CASCADE,
    position    integer NOT NULL,
    type        text NOT NULL CHECK (type IN ('Scope', 'Definition', 'Example', 'History', 'Editorial', 'Change')),
    body        text NOT NULL,
    language    text NOT NULL,
    PRIMARY KEY (concept_id, position)
);

-- broader; narrower is the same relation read the other way.
CREATE TABLE broader (
    concept_id  text NOT NULL REFERENCES concept (id) ON DELETE CASCADE,
    broader_id  text NOT NULL REFERENCES concept (id) ON DELETE CASCADE,
    PRIMARY KEY (concept_id, broader_id)
);
CREATE INDEX broader_narrower ON broader (broader_id, concept_id);

CREATE TABLE match (
    concept_id  text NOT NULL REFERENCES concept (id) ON DELETE CASCADE,
    position    integer NOT NULL,
    property    text NOT NULL CHECK (property IN ('exactMatch', 'closeMatch', 'broadMatch', 'narrowMatch', 'relatedMatch')),
    url         text NOT NULL,
    PRIMARY KEY (concept_id, position)
);
