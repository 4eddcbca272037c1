-- Names that are namespaces: a person's username or an organization's name. One table, so that
-- a name is unique across both kinds, case-insensitively, and resolving a namespace is one
-- primary-key look-up.
CREATE TABLE namespace (
    name_key   text PRIMARY KEY CHECK (name_key = lower(name_key)),
    kind       text NOT NULL CHECK (kind IN ('person', 'organization')),
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE person (
    id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    username           text NOT NULL,
    display_name       text NOT NULL,
    email              text NOT NULL,              -- the sign-in address: private
    public_email       text,                       -- shown to authenticated callers; null when none
    password_hash      text NOT NULL,              -- Argon2id, PHC string form
    two_factor_enabled boolean NOT NULL DEFAULT false,
    avatar             bytea,                      -- an uploaded PNG or JPEG; null: generated default
    avatar_type        text,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT person_username_namespace FOREIGN KEY (username) REFERENCES namespace (name_key)
);

CREATE UNIQUE INDEX person_username_key ON person (username);
CREATE UNIQUE INDEX person_email_key ON person (lower(email));
