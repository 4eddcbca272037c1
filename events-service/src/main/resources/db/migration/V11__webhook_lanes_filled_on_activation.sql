-- A webhook made active again (after it was disabled or paused) may have nothing pending where its
-- log still holds events for it (its last delivery given up, or its old pending ones purged): no
-- delivery of it would fill its lanes, so this does, with the same bound as the fan-out's
-- (WebhookFanoutRepository.PENDING_PER_LANE).
CREATE FUNCTION webhook_lanes_filled() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM webhook_fill(c.subscription_id, c.repository_id, 10)
       FROM (SELECT subscription_id, repository_id FROM webhook_lane_cursor WHERE subscription_id = NEW.id
              ORDER BY repository_id) c;
    RETURN NULL;
END $$;
CREATE TRIGGER webhook_lanes_filled AFTER UPDATE OF state ON webhook_subscription
    FOR EACH ROW WHEN (NEW.state = 'active' AND OLD.state <> 'active') EXECUTE FUNCTION webhook_lanes_filled();
