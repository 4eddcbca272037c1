-- An application that one of the platform's operators checked: only such an application (or one
-- the person consented to before) is sent an answer without the person seeing a page
-- (prompt=none), and the pages mark every other one. Owners' changes to what was checked (the
-- name, the redirect URIs) take the mark away again.
ALTER TABLE application ADD COLUMN verified boolean NOT NULL DEFAULT false;
