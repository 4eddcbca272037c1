-- A since= page: 30 concepts updated after a moment, then their labels.
\set n random(1, :concepts)
SELECT c.updated_at AS since FROM bench_floor.concept_ids b JOIN vocab.concept c ON c.id = b.id WHERE b.n = :n \gset
SELECT coalesce(array_agg(id), '{}') AS ids FROM (SELECT id FROM vocab.concept WHERE scheme_id = :scheme AND updated_at > :since::timestamptz ORDER BY updated_at, id LIMIT 30) p \gset
SELECT concept_id, type, body, language, abbreviation, vernacular, historical FROM vocab.label WHERE concept_id = ANY(:ids::text[]) ORDER BY concept_id, position;
SELECT concept_id, broader_id FROM vocab.broader WHERE concept_id = ANY(:ids::text[]);
