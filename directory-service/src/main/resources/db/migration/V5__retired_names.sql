-- A deleted organization's name is retired, not freed: vocabularies and data events are kept by
-- name in other services, and whoever took the name next would read and write them. A retired
-- name resolves to no namespace and can never be taken again (its row keeps the primary key).
ALTER TABLE namespace DROP CONSTRAINT namespace_kind_check;
ALTER TABLE namespace ADD CONSTRAINT namespace_kind_check CHECK (kind IN ('person', 'organization', 'retired'));
ALTER TABLE namespace ADD COLUMN retired_at timestamptz;
