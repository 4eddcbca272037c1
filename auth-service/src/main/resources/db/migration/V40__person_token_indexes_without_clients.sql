-- Tokens a client holds for itself (client_credentials) have no person: every query that reads
-- these two indexes names a person (person_id = ...), so their rows were never read there, yet each
-- such grant wrote an entry in both, at the same end of each (a NULL key). Only tokens of people now.
CREATE INDEX token_person_live_people ON token (person_id) WHERE revoked_at IS NULL AND person_id IS NOT NULL;
DROP INDEX token_person_live;
ALTER INDEX token_person_live_people RENAME TO token_person_live;

CREATE INDEX token_person_application_people ON token (person_id, application_id)
    WHERE kind = 'a' AND person_id IS NOT NULL;
DROP INDEX token_person_application;
ALTER INDEX token_person_application_people RENAME TO token_person_application;
