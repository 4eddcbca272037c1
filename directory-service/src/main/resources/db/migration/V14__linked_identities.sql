-- Sign-in through another identity provider (an institution's proxy, ORCID, GitHub): each
-- identity there (the provider's id as the operator configured it, and the provider's subject)
-- belongs to at most one person. What the provider said of the person at the last sign-in
-- (address, whether verified, REFEDS assurance, an ORCID iD) is kept with the link, for the
-- account page and the research claims.
CREATE TABLE linked_identity (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    person_id      bigint NOT NULL REFERENCES person (id) ON DELETE CASCADE,
    provider       text NOT NULL,
    subject        text NOT NULL,
    display_name   text,                        -- the provider's name for the person (username or address)
    email          text,
    email_verified boolean NOT NULL DEFAULT false,
    assurance      text NOT NULL DEFAULT '',    -- eduperson_assurance values, space-separated (URIs have no spaces)
    orcid          text,                        -- an ORCID iD, 0000-0000-0000-000X
    created_at     timestamptz NOT NULL DEFAULT now(),
    last_used_at   timestamptz,
    UNIQUE (provider, subject)
);
CREATE INDEX linked_identity_person ON linked_identity (person_id);

-- A person who signed up through a provider has no password until they set one (recovery mail).
ALTER TABLE person ALTER COLUMN password_hash DROP NOT NULL;

-- Whether a person who has a second factor of their own is asked for it after signing in through
-- a provider too (on unless they turn it off: a provider's sign-in may be weaker than their own).
ALTER TABLE person ADD COLUMN second_factor_after_upstream boolean NOT NULL DEFAULT true;
