-- A page of 30 concepts by update time, then their labels (one index range each).
\set page random(1, 200)
SELECT coalesce(array_agg(id), '{}') AS ids FROM (SELECT id FROM vocab.concept WHERE scheme_id = :scheme ORDER BY updated_at, id LIMIT 30 OFFSET (:page - 1) * 30) p \gset
SELECT concept_id, type, body, language, abbreviation, vernacular, historical FROM vocab.label WHERE concept_id = ANY(:ids::text[]) ORDER BY concept_id, position;
SELECT concept_id, broader_id FROM vocab.broader WHERE concept_id = ANY(:ids::text[]);
