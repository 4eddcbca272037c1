-- Every write to a scheme or to its concepts gives the scheme a new revision, in the same
-- transaction. A rendered page is valid for as long as the revisions it was read under: a replica
-- caches it under them and checks them with the scheme read the request makes anyway. Values come
-- from one sequence, so a revision is never given twice, even to a scheme deleted and created again.
CREATE SEQUENCE scheme_revision;
ALTER TABLE scheme ADD COLUMN revision bigint NOT NULL DEFAULT nextval('scheme_revision');
