-- User permissions that an application's owner gives a person or an organization (spec:
-- "An app owner can give these permissions to a user or a group").
CREATE TABLE accessor (
    application_id bigint NOT NULL REFERENCES application (id) ON DELETE CASCADE,
    kind           text NOT NULL CHECK (kind IN ('person', 'organization')),
    subject_id     bigint NOT NULL,
    permissions    jsonb NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (application_id, kind, subject_id)
);
