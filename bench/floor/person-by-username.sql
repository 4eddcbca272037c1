-- GET /people/:username: the person by the unique index on username.
\set n random(1, :people)
SELECT id, username, display_name, public_email, created_at, updated_at FROM directory.person
WHERE username = 'bench-' || lpad(:n::text, 5, '0');
