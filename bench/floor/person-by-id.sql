-- GET /user: the person by primary key.
\set n random(1, :people)
SELECT id, username, display_name, email, public_email, created_at, updated_at FROM directory.person WHERE id = :n;
