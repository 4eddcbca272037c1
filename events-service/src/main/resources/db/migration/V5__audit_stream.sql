-- The platform's audit stream: security-relevant changes, as the services that made them tell
-- (auth-service: applications, authorizations and their revocations; directory-service: account
-- changes and memberships; this service: webhooks), each once: a service's outbox may send one
-- again, and (source, source_id) makes the second a no-op. Read by the platform's operators, and
-- delivered to their audit webhooks as CloudEvents.
CREATE TABLE audit_event (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    source      text NOT NULL,               -- the service that made the change
    source_id   bigint NOT NULL,             -- its id for it, unique per source
    type        text NOT NULL,               -- such as membership.added, account.password_changed
    subject     text NOT NULL,               -- what changed: person/12, organization/7/member/12
    actor_id    bigint,                      -- the person who made the change, when one did
    data        jsonb NOT NULL,
    occurred_at timestamptz NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
);
CREATE UNIQUE INDEX audit_event_source ON audit_event (source, source_id);
CREATE INDEX audit_event_created ON audit_event (created_at, id);
CREATE INDEX audit_event_type ON audit_event (type, id);

-- Events of this service's own (webhooks' changes) are numbered here.
CREATE SEQUENCE audit_source_id;

-- A subscription is to a namespace's data events (namespace set) or to the audit stream (the
-- operators', namespace null).
ALTER TABLE webhook_subscription ADD COLUMN stream text NOT NULL DEFAULT 'data' CHECK (stream IN ('data', 'audit'));
ALTER TABLE webhook_subscription ALTER COLUMN namespace DROP NOT NULL;
ALTER TABLE webhook_subscription ADD CONSTRAINT webhook_subscription_stream
    CHECK ((stream = 'data') = (namespace IS NOT NULL));
CREATE INDEX webhook_subscription_audit ON webhook_subscription (id) WHERE stream = 'audit' AND state <> 'paused';

-- A delivery carries a data event or an audit event; the audit stream is one lane (0), in order.
ALTER TABLE webhook_delivery ALTER COLUMN event_id DROP NOT NULL;
ALTER TABLE webhook_delivery ADD COLUMN audit_event_id bigint REFERENCES audit_event (id) ON DELETE CASCADE;
ALTER TABLE webhook_delivery ADD CONSTRAINT webhook_delivery_one_event CHECK ((event_id IS NULL) <> (audit_event_id IS NULL));
