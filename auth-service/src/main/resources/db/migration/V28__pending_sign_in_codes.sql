-- The second-factor codes a pending sign-in has taken, each counted before it is checked (one
-- conditional UPDATE, so codes sent at once cannot pass the limit): past the limit it is ended,
-- and the person signs in again with the password (PendingSignIns.CODES).
ALTER TABLE pending_sign_in ADD COLUMN codes integer NOT NULL DEFAULT 0;
