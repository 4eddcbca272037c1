-- Webhook subscriptions: a namespace's (every repository) or one repository's, the kinds of event
-- sent, where to, and the secret that signs them (Standard Webhooks). The secret is needed to sign,
-- so it is sealed (AES-GCM, WebhookSecrets), never stored in the clear; during a rotation the
-- previous one signs too until previous_secret_until.
CREATE TABLE webhook_subscription (
    id                      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    namespace               text NOT NULL,          -- lower-case namespace name
    repository              text,                   -- null: every repository of the namespace
    target_url              text NOT NULL,
    kinds                   text[] NOT NULL,
    description             text NOT NULL DEFAULT '',
    -- active: sent; paused: by its admins, nothing queued meanwhile; disabled: by the platform,
    -- after failing for the retry period (disabled_reason says why): events are still queued, and
    -- sent in order once its admins make it active again.
    state                   text NOT NULL CHECK (state IN ('active', 'paused', 'disabled')),
    disabled_reason         text,
    -- The admins are owed a mail that it was disabled: due now, or later while a replica holds it.
    notice_due_at           timestamptz,
    secret_sealed           bytea NOT NULL,
    previous_secret_sealed  bytea,
    previous_secret_until   timestamptz,
    -- The public API's base when it was made: the CloudEvents' source and the data's URLs.
    api_base                text NOT NULL,
    creator_id              bigint NOT NULL,
    created_at              timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
    updated_at              timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
);
-- What an append looks up in its own statement: the subscriptions of its place that queue.
CREATE INDEX webhook_subscription_place ON webhook_subscription (namespace, repository) WHERE state <> 'paused';
CREATE INDEX webhook_subscription_notice ON webhook_subscription (notice_due_at) WHERE notice_due_at IS NOT NULL;

-- The delivery outbox: one row per event per subscription, written by the statement that records
-- the event (EventRepository), so that an event is never recorded without its deliveries. Workers
-- of every replica claim the head of each lane (a subscription's deliveries of one repository, in
-- event order) with a lease; delivered rows stay as the delivery log, purged after a while.
CREATE TABLE webhook_delivery (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subscription_id  bigint NOT NULL REFERENCES webhook_subscription (id) ON DELETE CASCADE,
    lane             bigint NOT NULL,                 -- the repository's id
    event_id         bigint NOT NULL REFERENCES data_event (id) ON DELETE CASCADE,
    state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts         integer NOT NULL DEFAULT 0,
    -- Due now for a new delivery; later after a failure (backoff), or while a replica holds it (lease).
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),
    -- The retry period counts from the first attempt (a redelivery starts it again).
    first_attempt_at timestamptz,
    last_status      integer,
    finished_at      timestamptz,
    created_at       timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
);
-- The heads of the lanes: a skip scan over the pending rows (WebhookDeliveryRepository.CLAIM).
CREATE INDEX webhook_delivery_lanes ON webhook_delivery (subscription_id, lane, id) WHERE state = 'pending';
CREATE INDEX webhook_delivery_log ON webhook_delivery (subscription_id, id DESC);
CREATE INDEX webhook_delivery_finished ON webhook_delivery (finished_at) WHERE finished_at IS NOT NULL;
CREATE INDEX webhook_delivery_event ON webhook_delivery (event_id);

-- Each attempt: when, how long, the answer's status (null: none, see error) and its first bytes.
CREATE TABLE webhook_attempt (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    delivery_id  bigint NOT NULL REFERENCES webhook_delivery (id) ON DELETE CASCADE,
    attempted_at timestamptz NOT NULL,
    duration_ms  integer NOT NULL,
    status       integer,
    error        text,
    answer       text NOT NULL DEFAULT ''
);
CREATE INDEX webhook_attempt_delivery ON webhook_attempt (delivery_id, id);
