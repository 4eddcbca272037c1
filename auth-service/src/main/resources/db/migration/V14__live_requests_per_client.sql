-- A public client needs only its id to store a device code or a pushed request: how many of each
-- are live per client is capped (ziggurat.auth.live-device-codes-per-client and
-- live-pushed-requests-per-client), counted with these indexes.
CREATE INDEX device_authorization_live ON device_authorization (application_id, expires_at) WHERE status = 'pending';
CREATE INDEX pushed_authorization_request_live ON pushed_authorization_request (application_id, expires_at)
    WHERE used_at IS NULL;
