-- The erasures' outbox carries a second kind of message to a peer: a password changed through the
-- API (no sign-in of auth-service's to keep) ends every sign-in of the person there, and the
-- tokens of the client-less password grant. Many of those may be owed for one person; an erasure,
-- once per peer.
ALTER TABLE person_erasure RENAME TO peer_delivery;
ALTER INDEX person_erasure_due RENAME TO peer_delivery_due;
ALTER TABLE peer_delivery ADD COLUMN kind text NOT NULL DEFAULT 'erasure' CHECK (kind IN ('erasure', 'sign_out'));
ALTER TABLE peer_delivery DROP CONSTRAINT person_erasure_person_id_peer_key;
CREATE UNIQUE INDEX peer_delivery_erasure ON peer_delivery (person_id, peer) WHERE kind = 'erasure';
