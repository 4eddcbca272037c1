-- The schema is created by Flyway (quarkus.flyway.create-schemas); this first migration records
-- the baseline of vocab-service so that every later one has a predecessor.
COMMENT ON SCHEMA vocab IS 'Owned by vocab-service; no other service reads or writes it.';
