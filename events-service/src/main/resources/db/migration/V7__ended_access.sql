-- When a person's way to act ends elsewhere (their grant to an application revoked, narrowed below
-- admin or the application deleted, in auth-service; the first recovery of an account nobody had
-- proven, in directory-service), the webhooks made with it stop (WebhookRightsFollowUps). Tokens
-- made before the end still pass the gateway for a while (its token cache) and the end reaches
-- this service through the audit relay: so
--
-- creator_since: when the one who answers for a webhook took it on (made it, made it active, gave
-- it a target). Other edits (its description, its events, a new secret) do not move it, so they
-- cannot lift a webhook out of what an end stops.
ALTER TABLE webhook_subscription ADD COLUMN creator_since timestamptz;
UPDATE webhook_subscription SET creator_since = updated_at;
ALTER TABLE webhook_subscription ALTER COLUMN creator_since SET NOT NULL;
ALTER TABLE webhook_subscription ALTER COLUMN creator_since SET DEFAULT date_trunc('milliseconds', now());

-- ended_access: each end as told (person, or any when null; client, or any when null), kept a day.
-- For a grace after it (ziggurat.events.webhooks.ended-access-grace, longer than the gateway's
-- token cache and the relay's delay) nobody it names may make or take on a webhook, and what they
-- took on up to the end and that grace stops.
CREATE TABLE ended_access (
    person_id bigint,
    client_id text,
    ended_at  timestamptz NOT NULL,
    CONSTRAINT ended_access_told_once UNIQUE NULLS NOT DISTINCT (person_id, client_id, ended_at),
    CHECK (person_id IS NOT NULL OR client_id IS NOT NULL)
);
CREATE INDEX ended_access_when ON ended_access (ended_at);

-- Revocations told before auth-service named the client in them (its V32): the application's
-- client_id is in its own entries. Webhooks made through an application whose grant that person
-- revoked, or which was deleted, stop now as they would have then (their admins are mailed).
UPDATE webhook_subscription s
   SET state = 'disabled', disabled_cause = 'creator', notice_due_at = CASE WHEN s.namespace IS NULL THEN NULL ELSE now() END,
       disabled_reason = 'The access of the application ' || s.creator_client_id || ' it was made through ended before the '
           || 'platform stopped such webhooks. An admin makes it active again (PATCH its "active" to true), and answers for '
           || 'it from then on.',
       updated_at = date_trunc('milliseconds', now())
 WHERE s.creator_client_id IS NOT NULL AND NOT (s.state = 'disabled' AND s.disabled_cause = 'creator')
   AND EXISTS (SELECT 1 FROM audit_event ended
                 JOIN audit_event app ON app.source = 'auth-service' AND app.type LIKE 'application.%'
                                     AND app.data->>'client_id' = s.creator_client_id
                WHERE ended.source = 'auth-service' AND s.creator_since <= ended.occurred_at + interval '2 minutes'
                  AND ((ended.type = 'authorization.revoked' AND ended.data->>'application_id' = app.data->>'application_id'
                        AND ended.data->>'person_id' = s.creator_id::text)
                       OR (ended.type = 'application.deleted' AND ended.id = app.id)));
