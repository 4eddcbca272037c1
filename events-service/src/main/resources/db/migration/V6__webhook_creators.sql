-- Who answers for a webhook: its creator (creator_id, V4), or the admin who last made it active or
-- changed its target, and the OAuth client of the token they did it with (null: their own token,
-- issued without a client). A webhook whose creator lost the rights that made it (no longer an
-- admin of the namespace; for the audit stream, no longer an operator) is disabled at its next
-- delivery, and the namespace's remaining admins are told (OwnerNotices).
ALTER TABLE webhook_subscription ADD COLUMN creator_client_id text;
-- Why the platform disabled it: its deliveries failed for the retry period, or its creator lost
-- their rights (the notice to the admins says what to do in each case).
ALTER TABLE webhook_subscription ADD COLUMN disabled_cause text CHECK (disabled_cause IN ('failing', 'creator'));
UPDATE webhook_subscription SET disabled_cause = 'failing' WHERE state = 'disabled';

-- The audit stream's webhooks made before: an operator's token issued to an application (a third
-- party the operator authorized with the admin scope) could make them, and which token made one was
-- not recorded. Each active one stops until an operator, with their own token, makes it active
-- again (which makes them its creator); events are queued meanwhile, as for any disabled webhook.
UPDATE webhook_subscription
   SET state = 'disabled', disabled_cause = 'creator', notice_due_at = NULL,
       disabled_reason = 'Made before the platform recorded the token that made an audit webhook: one of the '
           || 'platform''s operators makes it active again with their own token (not one issued to an application).',
       updated_at = date_trunc('milliseconds', now())
 WHERE stream = 'audit' AND state = 'active';
