package org.ziggurat.vocab.concepts;

import java.util.EnumMap;
import java.util.Map;

/**
 * The SQL of the concept reads, built once at class load: a list or a search is a hot path, and
 * its statement never changes. QueryPlanTest reads each one's plan.
 */
final class ConceptStatements {

    private ConceptStatements() {
    }

    /**
     * $1 query, $2 language or null, $3 namespace, $4 scheme id or null, $5 updated after or null,
     * $6 limit, $7 offset. A whole label and a prefix are found in the b-tree of folded labels
     * (byte order, so a prefix is a range; the LIKE then checks it exactly); other patterns in the
     * trigram index, which alone reads every label sharing a trigram with a short prefix.
     */
    static String searchSql(ConceptSearch.Shape shape) {
        String match = switch (shape) {
            case WHOLE -> "l.folded COLLATE \"C\" = fold($1)";
            case PREFIX -> "l.folded COLLATE \"C\" >= fold(left($1, -1)) AND l.folded COLLATE \"C\" < fold(left($1, -1)) "
                    + "|| chr(1114111) AND l.folded LIKE " + ConceptSearch.LIKE_PATTERN_OF_$1;
            case PATTERN -> "l.folded LIKE " + ConceptSearch.LIKE_PATTERN_OF_$1;
        };
        return "SELECT " + ConceptRow.COLUMNS + " FROM ("
                        + "SELECT DISTINCT ON (l.concept_id) l.concept_id, "
                        + "CASE l.type WHEN 'Preferred' THEN 0 WHEN 'Alternative' THEN 1 ELSE 2 END AS rank, l.folded "
                        + "FROM label l JOIN concept c ON c.id = l.concept_id "
                        + "WHERE " + match
                        + " AND ($2::text IS NULL OR l.language = $2) AND c.namespace = $3 "
                        + "AND ($4::bigint IS NULL OR c.scheme_id = $4) AND ($5::timestamptz IS NULL OR c.updated_at > $5) "
                        + "ORDER BY l.concept_id, rank, l.folded) best "
                        + "JOIN concept c ON c.id = best.concept_id JOIN scheme s ON s.id = c.scheme_id "
                        + "ORDER BY best.rank, best.folded, c.id LIMIT $6 OFFSET $7";
    }

    /** Every list and search statement, built once: a list or a search is a hot path, and its SQL never changes. */
    static final Map<ConceptSearch.Shape, String> SEARCH_BY_SHAPE = new EnumMap<>(ConceptSearch.Shape.class);
    static final String[] PAGE_BY_SHAPE = new String[8];

    static {
        for (ConceptSearch.Shape shape : ConceptSearch.Shape.values()) {
            SEARCH_BY_SHAPE.put(shape, searchSql(shape));
        }
        for (int shape = 0; shape < PAGE_BY_SHAPE.length; shape++) {
            PAGE_BY_SHAPE[shape] = pageSql((shape & 4) != 0, (shape & 2) != 0, (shape & 1) != 0);
        }
    }

    /**
     * A page of a namespace's or a scheme's concepts by update time. Each combination has its own
     * statement, so every one plans as a plain index range (an "x IS NULL OR" condition would not).
     * Parameters in order: namespace, then the scheme id if {@code ofScheme}, then the instant if
     * {@code since}, then limit and offset.
     */
    static String pageSql(boolean ofScheme, boolean since, boolean descending) {
        int n = 1;
        StringBuilder sql = new StringBuilder("SELECT " + ConceptRow.COLUMNS
                + " FROM concept c JOIN scheme s ON s.id = c.scheme_id WHERE c.namespace = $" + n++);
        if (ofScheme) {
            sql.append(" AND c.scheme_id = $").append(n++);
        }
        if (since) {
            sql.append(" AND c.updated_at > $").append(n++);
        }
        sql.append(descending ? " ORDER BY c.updated_at DESC, c.id DESC" : " ORDER BY c.updated_at, c.id");
        return sql.append(" LIMIT $").append(n++).append(" OFFSET $").append(n).toString();
    }

    /**
     * Everything a concept view shows besides the concept row, for many concepts at once, in one
     * statement: a round trip to the database cost more than the rows (six statements were a
     * third of a concept read's time, in the system call that sent each). Rows are tagged by kind:
     * l label, n note, b broader, w narrower, m match, p the preferred labels of the broader and
     * narrower concepts (those of the concepts themselves are among their labels).
     */
    static final String DETAILS_SQL = "WITH rel AS ("
            + "SELECT concept_id, broader_id AS other, false AS narrower FROM broader WHERE concept_id = ANY($1) "
            + "UNION ALL SELECT broader_id, concept_id, true FROM broader WHERE broader_id = ANY($1)) "
            + "SELECT 'l' AS k, concept_id, position, type, body, language, abbreviation, vernacular, historical "
            + "FROM label WHERE concept_id = ANY($1) "
            + "UNION ALL SELECT 'n', concept_id, position, type, body, language, NULL, NULL, NULL FROM note WHERE concept_id = ANY($1) "
            + "UNION ALL SELECT CASE WHEN narrower THEN 'w' ELSE 'b' END, concept_id, 0, NULL, other, NULL, NULL, NULL, NULL FROM rel "
            + "UNION ALL SELECT 'm', concept_id, position, property, url, NULL, NULL, NULL, NULL FROM match WHERE concept_id = ANY($1) "
            + "UNION ALL SELECT 'p', l.concept_id, l.position, NULL, l.body, l.language, NULL, NULL, NULL FROM label l "
            + "WHERE l.type = 'Preferred' AND l.concept_id IN (SELECT other FROM rel) AND l.concept_id <> ALL($1) "
            + "ORDER BY 1, 2, 3, 5";

}
