-- The newest page: the repository by name, then 30 events by the (repository_id, id DESC) index.
SELECT id AS repo FROM events.repository WHERE namespace = 'bench-00001' AND name = 'big' \gset
SELECT id, kind, note, creator_id, creator_username, client_id, commits_count, created_at
FROM events.data_event WHERE repository_id = ANY(ARRAY[:repo::bigint]) ORDER BY repository_id, id DESC LIMIT 30;
