-- Deliveries as they can go out, not as events come in. The fan-out (V9) inserted a delivery per
-- subscription and event right away: 100 subscriptions whose receivers hold each delivery 30 s
-- made 100 rows per append, beside the appends on the same cores, for deliveries that would go out
-- one at a time per lane over hours. Now the fan-out writes ONE row per event to its repository's
-- log (webhook_event_log), and each lane (a subscription's deliveries of one repository) gets its
-- next deliveries from there only while it has fewer than a few pending (webhook_fill): by the
-- fan-out, and by each delivery of the lane as it is delivered. Every event still gets a delivery
-- per subscription that took it at the event (webhook_subscription_span), in the log's order.

-- Positions in a repository's log are given by its fan-out, one transaction at a time per
-- repository, in the order those commit: a cursor never passes a position that a later commit
-- could still fill in (event ids could: an event's id is drawn before its commit).
CREATE TABLE webhook_event_log_end (
    repository_id bigint PRIMARY KEY,
    position      bigint NOT NULL
);
CREATE TABLE webhook_event_log (
    repository_id bigint NOT NULL,
    position      bigint NOT NULL,
    event_id      bigint NOT NULL REFERENCES data_event (id) ON DELETE CASCADE,
    PRIMARY KEY (repository_id, position)
);
CREATE INDEX webhook_event_log_event ON webhook_event_log (event_id);

-- How far each lane has its deliveries: the log's positions up to here are queued (or not taken).
-- Made by the fan-out for each subscription of the repository, at the log's end before the events
-- it logs; the log's rows every cursor of a repository has passed are deleted.
CREATE TABLE webhook_lane_cursor (
    subscription_id bigint NOT NULL REFERENCES webhook_subscription (id) ON DELETE CASCADE,
    repository_id   bigint NOT NULL,
    position        bigint NOT NULL,
    PRIMARY KEY (subscription_id, repository_id)
);
CREATE INDEX webhook_lane_cursor_of ON webhook_lane_cursor (repository_id, position);

-- A lane's next deliveries while it has fewer than `bound` pending: the log's events after its
-- cursor that its subscription took (its spans), in log order; the cursor moves past them (past
-- the whole log read when fewer were found). The cursor's row lock makes fills of one lane take
-- turns, each statement reading what the one before committed. Wakes the delivery workers when it
-- queued any. Returns the deliveries queued.
CREATE FUNCTION webhook_fill(lane_subscription bigint, lane_repository bigint, bound integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    cursor_at bigint;
    room      integer;
    picked    bigint[];
    last_pick bigint;
    log_end   bigint;
    queued    integer := 0;
BEGIN
    SELECT c.position INTO cursor_at FROM webhook_lane_cursor c
     WHERE c.subscription_id = lane_subscription AND c.repository_id = lane_repository FOR UPDATE;
    IF NOT FOUND THEN
        RETURN 0;
    END IF;
    SELECT bound - count(*) INTO room FROM webhook_delivery d
     WHERE d.subscription_id = lane_subscription AND d.lane = lane_repository AND d.state = 'pending';
    IF room <= 0 THEN
        RETURN 0;
    END IF;
    -- One statement, one snapshot: the end read is the end of what was searched.
    SELECT array_agg(m.event_id ORDER BY m.position), max(m.position),
           (SELECT max(l.position) FROM webhook_event_log l WHERE l.repository_id = lane_repository)
      INTO picked, last_pick, log_end
      FROM (SELECT l.position, l.event_id FROM webhook_event_log l JOIN data_event e ON e.id = l.event_id
             WHERE l.repository_id = lane_repository AND l.position > cursor_at
               AND EXISTS (SELECT 1 FROM webhook_subscription_span p WHERE p.subscription_id = lane_subscription
                           AND p.after_event < e.id AND (p.until_event IS NULL OR e.id <= p.until_event)
                           AND e.kind = ANY (p.kinds))
             ORDER BY l.position LIMIT room) m;
    IF picked IS NOT NULL THEN
        -- A fan-out whose commit was not known to have happened may log an event twice: queued once.
        INSERT INTO webhook_delivery (subscription_id, lane, event_id)
        SELECT lane_subscription, lane_repository, u.event_id FROM unnest(picked) WITH ORDINALITY AS u (event_id, n)
         ORDER BY u.n ON CONFLICT (event_id, subscription_id) DO NOTHING;
        GET DIAGNOSTICS queued = ROW_COUNT;
        IF queued > 0 THEN
            PERFORM pg_notify('queue_events_webhooks', '');
        END IF;
    END IF;
    cursor_at := greatest(cursor_at, CASE WHEN cardinality(picked) = room THEN last_pick ELSE log_end END);
    UPDATE webhook_lane_cursor c SET position = cursor_at
     WHERE c.subscription_id = lane_subscription AND c.repository_id = lane_repository AND c.position < cursor_at;
    IF FOUND THEN
        DELETE FROM webhook_event_log l WHERE l.repository_id = lane_repository
           AND l.position <= (SELECT min(c.position) FROM webhook_lane_cursor c WHERE c.repository_id = lane_repository);
    END IF;
    RETURN queued;
END $$;
