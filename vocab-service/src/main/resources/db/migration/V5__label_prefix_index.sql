-- Whole-label and prefix searches (q=babylon, q=bab*) read the folded labels in byte order: an
-- equality or a range of this b-tree, instead of the trigram index, which answers a short prefix
-- only after reading every label that shares one of its trigrams.
CREATE INDEX label_folded_prefix ON label (folded COLLATE "C");
