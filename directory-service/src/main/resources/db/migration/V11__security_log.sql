-- The account's security log: besides changes to factors and the password, sign-ins and failed
-- attempts (with the device's browser as it named itself), changes of address, and applications
-- given or refused access. device_key is the browser's name without its version numbers, so that
-- a browser's update is not "a new device". Entries older than the configured retention
-- (ziggurat.directory.security-log.retention) are purged by every replica, idempotently.
ALTER TABLE account_event ADD COLUMN device text;
ALTER TABLE account_event ADD COLUMN device_key text;
ALTER TABLE account_event ADD COLUMN detail text;
CREATE INDEX account_event_created ON account_event (created_at);
