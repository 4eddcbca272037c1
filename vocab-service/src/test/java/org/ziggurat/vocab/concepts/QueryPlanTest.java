package org.ziggurat.vocab.concepts;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.ServiceDatabase;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every read the vocabulary API makes is served by the index meant for it, never by reading a
 * whole table or scheme. A namespace of the test's own gets a large scheme (30,000 concepts,
 * 90,000 labels in three languages) beside a small one, 5,000 other schemes exist, the statistics
 * are refreshed, and the
 * repository's own statements are prepared and explained as the service runs them. The
 * benchmark measures the same at AGROVOC size.
 */
@QuarkusTest
class QueryPlanTest {

    static final String SINCE = "now() - interval '1 day'";
    /** The small scheme's id, looked up by the plain read it must not trip over. */
    static final String SMALL_SCHEME = "(SELECT id FROM scheme WHERE namespace = 'scale' AND slug = 'small')";

    static Map<String, String> reads() {
        Map<String, String> reads = new LinkedHashMap<>();
        reads.put("a concept", "SELECT * FROM concept c JOIN scheme s ON s.id = c.scheme_id "
                + "WHERE c.scheme_id = 1 AND c.id = '00000001-0001-0000-0000'");
        reads.put("a scheme", "SELECT * FROM scheme WHERE namespace = 'scale' AND slug = 'places'");
        reads.put("a namespace's schemes", "SELECT * FROM scheme WHERE namespace = 'scale' ORDER BY slug LIMIT 31");
        reads.put("labels of a page", "SELECT * FROM label WHERE concept_id = ANY(ARRAY['a', 'b'])");
        reads.put("narrower of a page", "SELECT * FROM broader WHERE broader_id = ANY(ARRAY['a', 'b'])");
        reads.put("the details of a page", prepared(ConceptStatements.DETAILS_SQL, List.of("ARRAY['a', 'b']")));
        for (boolean ofScheme : new boolean[] {false, true}) {
            for (boolean since : new boolean[] {false, true}) {
                for (boolean descending : new boolean[] {false, true}) {
                    List<String> args = new ArrayList<>(List.of("'scale'"));
                    if (ofScheme) {
                        args.add(SMALL_SCHEME);
                    }
                    if (since) {
                        args.add(SINCE);
                    }
                    args.addAll(List.of("31", "0"));
                    reads.put("a page of " + (ofScheme ? "a scheme" : "a namespace") + (since ? " since" : "")
                                    + (descending ? ", newest first" : ""),
                            prepared(ConceptStatements.pageSql(ofScheme, since, descending), args));
                }
            }
        }
        reads.put("a prefix search", prepared(ConceptStatements.searchSql(ConceptSearch.Shape.PREFIX),
                List.of("'bab*'", "NULL", "'scale'", "NULL", "NULL", "31", "0")));
        reads.put("an infix search in a language and scheme since", prepared(ConceptStatements.searchSql(ConceptSearch.Shape.PATTERN),
                List.of("'*ylo*'", "'eng'", "'scale'", SMALL_SCHEME, SINCE, "31", "0")));
        reads.put("a whole-label search", prepared(ConceptStatements.searchSql(ConceptSearch.Shape.WHOLE),
                List.of("'Babylon'", "NULL", "'scale'", "NULL", "NULL", "31", "0")));
        return reads;
    }

    /** PREPARE and EXECUTE in one string, separated by a semicolon: the test explains the second part. */
    static String prepared(String sql, List<String> args) {
        return sql + ";" + String.join(", ", args);
    }

    static final String SEED = """
            INSERT INTO scheme (namespace, slug, abbr, title, creator_id, creator_username)
                VALUES ('scale', 'big', 'B', 'Big', 1, 'scale'), ('scale', 'small', 'S', 'Small', 1, 'scale');
            INSERT INTO scheme (namespace, slug, abbr, title, creator_id, creator_username)
                SELECT 'crowd' || (i % 500), 'scheme-' || i, 'C', 'Crowd', 1, 'crowd' FROM generate_series(1, 5000) i;
            INSERT INTO concept (id, scheme_id, namespace, status, creator_id, creator_username, updated_at)
                SELECT lpad(to_hex(i), 8, '0') || '-' || lpad(to_hex(s.id::int), 4, '0') || '-0000-0000', s.id, 'scale',
                       'Stable', 1, 'scale', now() - i * interval '1 minute'
                FROM scheme s, generate_series(1, 30000) i
                WHERE s.namespace = 'scale' AND (s.slug = 'big' OR i <= 100);
            INSERT INTO label (concept_id, position, type, body, language)
                SELECT c.id, p, (ARRAY['Preferred', 'Alternative', 'Hidden'])[p],
                       (ARRAY['place ', 'lieu ', 'Ort '])[p] || md5(c.id), (ARRAY['eng', 'fra', 'deu'])[p]
                FROM concept c, generate_series(1, 3) p WHERE c.namespace = 'scale';
            INSERT INTO broader (concept_id, broader_id)
                SELECT lpad(to_hex(i), 8, '0') || '-' || lpad(to_hex(s.id::int), 4, '0') || '-0000-0000',
                       lpad(to_hex(i / 10), 8, '0') || '-' || lpad(to_hex(s.id::int), 4, '0') || '-0000-0000'
                FROM scheme s, generate_series(10, 30000) i WHERE s.namespace = 'scale' AND s.slug = 'big';
            ANALYZE scheme; ANALYZE concept; ANALYZE label; ANALYZE broader;
            """;

    @Test
    void everyReadIsServedByAnIndex() throws Exception {
        try (Connection c = ServiceDatabase.connect();
                Statement s = c.createStatement()) {
            s.execute("SET search_path TO vocab");
            s.execute(SEED);
            long small = 0;
            try (ResultSet rs = s.executeQuery("SELECT id FROM scheme WHERE namespace = 'scale' AND slug = 'small'")) {
                rs.next();
                small = rs.getLong(1);
            }
            int n = 0;
            for (var read : reads().entrySet()) {
                // The small scheme's id stands in literally, as the service sends it.
                read.setValue(read.getValue().replace(SMALL_SCHEME, Long.toString(small)));
                String explain = "EXPLAIN " + read.getValue();
                int split = read.getValue().lastIndexOf(';');
                if (split > 0) {
                    String name = "read" + n++;
                    s.execute("PREPARE " + name + " AS " + read.getValue().substring(0, split));
                    explain = "EXPLAIN EXECUTE " + name + "(" + read.getValue().substring(split + 1) + ")";
                }
                StringBuilder plan = new StringBuilder();
                try (ResultSet rs = s.executeQuery(explain)) {
                    while (rs.next()) {
                        plan.append(rs.getString(1)).append('\n');
                    }
                }
                for (String table : new String[] {"scheme", "concept", "label", "broader", "note", "match"}) {
                    assertFalse(plan.toString().contains("Seq Scan on " + table + " "),
                            read.getKey() + " reads the whole table " + table + ":\n" + plan);
                }
                assertTrue(plan.toString().contains("Index"), read.getKey() + ":\n" + plan);
                if (read.getKey().startsWith("a page of a scheme")) {
                    assertTrue(plan.toString().contains("concept_scheme_updated"), read.getKey() + ":\n" + plan);
                } else if (read.getKey().startsWith("a page of a namespace")) {
                    assertTrue(plan.toString().contains("concept_namespace_updated"), read.getKey() + ":\n" + plan);
                } else if (read.getKey().contains("search") && !read.getKey().contains("scheme")) {
                    // Across a namespace an index of labels finds them (a whole label or a prefix in
                    // the b-tree, a pattern in the trigram index); within a small scheme the planner
                    // may rightly start from that scheme's concepts instead.
                    assertTrue(plan.toString().contains(read.getKey().contains("infix") ? "label_folded_trgm"
                            : "label_folded_prefix"), read.getKey() + ":\n" + plan);
                }
            }
        }
    }
}
