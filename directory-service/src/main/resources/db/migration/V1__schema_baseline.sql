-- The schema is created by Flyway (quarkus.flyway.create-schemas); this first migration records
-- the baseline of directory-service so that every later one has a predecessor.
COMMENT ON SCHEMA directory IS 'Owned by directory-service; no other service reads or writes it.';
