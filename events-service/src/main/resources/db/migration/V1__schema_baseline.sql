-- The schema is created by Flyway (quarkus.flyway.create-schemas); this first migration records
-- the baseline of events-service so that every later one has a predecessor.
COMMENT ON SCHEMA events IS 'Owned by events-service; no other service reads or writes it.';
