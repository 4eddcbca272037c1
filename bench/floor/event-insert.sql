-- Appending an event: the repository by name, the row and its notification, one commit.
BEGIN;
SELECT id AS repo FROM events.repository WHERE namespace = 'bench-00001' AND name = 'appends' \gset
INSERT INTO events.data_event (repository_id, kind, note, creator_id, creator_username, commits_count)
VALUES (:repo, 'API-Request', 'floor append', 1, 'bench-00001', 0) RETURNING id, created_at;
SELECT pg_notify('data_events', 'floor');
COMMIT;
