-- Dynamic client registration (RFC 7591, RFC 7592): the registration access token of a client that
-- registered itself (a keyed hash; null for applications made through /applications), and the
-- metadata it registered that has no column of its own (client_uri, logo_uri, contacts, the
-- token endpoint authentication method, grant types), returned as registered.
ALTER TABLE application
    ADD COLUMN registration_token_hash bytea,
    ADD COLUMN registration_metadata   jsonb;
