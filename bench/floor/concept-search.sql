-- A search: a whole label or a prefix as a range of the b-tree of folded labels (checked by the
-- LIKE), best label per concept, first 30.
\set n random(1, :terms)
SELECT pattern AS p, lo, hi FROM bench_floor.search_patterns WHERE n = :n \gset
SELECT concept_id FROM (
  SELECT DISTINCT ON (l.concept_id) l.concept_id, CASE l.type WHEN 'Preferred' THEN 0 WHEN 'Alternative' THEN 1 ELSE 2 END AS rank, l.folded
  FROM vocab.label l JOIN vocab.concept c ON c.id = l.concept_id
  WHERE l.folded COLLATE "C" >= :lo AND l.folded COLLATE "C" < :hi AND l.folded LIKE :p AND c.namespace = 'bench-00001'
  ORDER BY l.concept_id, rank, l.folded) best
ORDER BY rank, folded, concept_id LIMIT 30;
