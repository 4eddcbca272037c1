-- The schema is created by Flyway (quarkus.flyway.create-schemas); this first migration records
-- the baseline of auth-service so that every later one has a predecessor.
COMMENT ON SCHEMA auth IS 'Owned by auth-service; no other service reads or writes it.';
