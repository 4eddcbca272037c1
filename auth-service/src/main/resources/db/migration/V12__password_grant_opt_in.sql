-- RFC 9700 §2.4: the resource owner password credentials grant must not be used. The platform's own
-- tools keep the spec's client-less form; an application takes it only when its owner opts in
-- ("password_grant": true). New applications start without it; existing applications keep what
-- they have (this changes the column's default only, no row).
ALTER TABLE application ALTER COLUMN password_grant SET DEFAULT false;
