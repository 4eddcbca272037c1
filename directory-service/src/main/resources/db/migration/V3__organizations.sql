CREATE TABLE organization (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name         text NOT NULL REFERENCES namespace (name_key),
    display_name text NOT NULL,
    visibility   text NOT NULL CHECK (visibility IN ('public', 'private')),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX organization_name_key ON organization (name);
-- GET /organizations: newest first.
CREATE INDEX organization_newest ON organization (created_at DESC, id DESC);

CREATE TABLE membership (
    organization_id bigint NOT NULL REFERENCES organization (id) ON DELETE CASCADE,
    person_id       bigint NOT NULL REFERENCES person (id) ON DELETE CASCADE,
    role            text NOT NULL CHECK (role IN ('member', 'admin')),
    state           text NOT NULL CHECK (state IN ('active', 'pending')),
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, person_id)
);
-- The organizations of a person.
CREATE INDEX membership_person ON membership (person_id, organization_id);

-- OAuth applications attached to an organization, with the user permissions the application's
-- owner gave its members (auth-service records them here through the internal API).
CREATE TABLE organization_application (
    organization_id bigint NOT NULL REFERENCES organization (id) ON DELETE CASCADE,
    client_id       text NOT NULL,
    permissions     jsonb NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, client_id)
);
CREATE INDEX organization_application_client ON organization_application (client_id);
