-- A namespace-wide list is one index range, however many schemes the namespace has:
-- concepts carry their scheme's namespace (a scheme never changes namespace).
ALTER TABLE concept ADD COLUMN namespace text;
UPDATE concept c SET namespace = s.namespace FROM scheme s WHERE s.id = c.scheme_id;
ALTER TABLE concept ALTER COLUMN namespace SET NOT NULL;
CREATE INDEX concept_namespace_updated ON concept (namespace, updated_at, id);

-- Search compares folded text: lower case, compatibility-decomposed, without combining marks
-- (so 'Ἀθῆναι' is found by 'athen' only through its labels, but 'αθηναι' and 'ἀθῆναι' find it
-- alike), final sigma as sigma. The same function folds the query, so both sides agree.
CREATE FUNCTION fold(t text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN translate(regexp_replace(normalize(lower(t), NFKD),
        '[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]', '', 'g'), 'ς', 'σ');

ALTER TABLE label ADD COLUMN folded text GENERATED ALWAYS AS (fold(body)) STORED;

-- Prefix, infix and exact searches are served by a trigram index. pg_trgm ships with PostgreSQL
-- (contrib). The operator installs it beforehand (the launcher and the cluster's bootstrap SQL
-- do, into the schema 'extensions'); a superuser running this migration installs it itself. The
-- index names the operator class in whatever schema the extension lives.
DO $$
DECLARE
    trgm_schema text;
BEGIN
    SELECT n.nspname INTO trgm_schema
      FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
    IF trgm_schema IS NULL THEN
        IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
            RAISE EXCEPTION 'vocab-service needs the PostgreSQL extension pg_trgm: as a superuser, run '
                'CREATE SCHEMA IF NOT EXISTS extensions; CREATE EXTENSION pg_trgm SCHEMA extensions; '
                'GRANT USAGE ON SCHEMA extensions TO PUBLIC;';
        END IF;
        CREATE SCHEMA IF NOT EXISTS extensions;
        GRANT USAGE ON SCHEMA extensions TO PUBLIC;
        CREATE EXTENSION pg_trgm SCHEMA extensions;
        trgm_schema := 'extensions';
    END IF;
    EXECUTE format('CREATE INDEX label_folded_trgm ON label USING gin (folded %I.gin_trgm_ops)', trgm_schema);
END $$;
