-- A concept: the row, then its labels, notes, broader, narrower and matches (index reads).
\set n random(1, :concepts)
SELECT id AS cid FROM bench_floor.concept_ids WHERE n = :n \gset
SELECT c.* FROM vocab.concept c JOIN vocab.scheme s ON s.id = c.scheme_id WHERE c.scheme_id = :scheme AND c.id = :cid;
SELECT concept_id, type, body, language, abbreviation, vernacular, historical FROM vocab.label WHERE concept_id = ANY(ARRAY[:cid]) ORDER BY concept_id, position;
SELECT concept_id, type, body, language FROM vocab.note WHERE concept_id = ANY(ARRAY[:cid]);
SELECT concept_id, broader_id FROM vocab.broader WHERE concept_id = ANY(ARRAY[:cid]);
SELECT concept_id, broader_id FROM vocab.broader WHERE broader_id = ANY(ARRAY[:cid]);
SELECT concept_id, property, url FROM vocab.match WHERE concept_id = ANY(ARRAY[:cid]);
