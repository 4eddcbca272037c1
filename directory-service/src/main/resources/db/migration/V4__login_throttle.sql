-- Failed password checks per account and per client address, shared by every replica.
-- A key is 'account:<login>' or 'address:<ip>'.
CREATE TABLE login_throttle (
    key               text PRIMARY KEY,
    failures          integer NOT NULL,
    window_started_at timestamptz NOT NULL,
    blocked_until     timestamptz
);
CREATE INDEX login_throttle_window ON login_throttle (window_started_at);
