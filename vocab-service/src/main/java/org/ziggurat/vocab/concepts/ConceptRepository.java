package org.ziggurat.vocab.concepts;

import java.util.EnumMap;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.data.InvalidReference;
import org.ziggurat.platform.data.RowMissing;
import org.ziggurat.vocab.schemes.SchemeRepository;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Concepts with their labels, notes, relations and matches. A page of concepts is read with a
 * fixed number of queries whatever its size (ids in arrays), never one query per concept.
 */
@ApplicationScoped
public class ConceptRepository {

    private final Pool pool;

    ConceptRepository(Pool pool) {
        this.pool = pool;
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
    private static final Map<ConceptSearch.Shape, String> SEARCH_BY_SHAPE = new EnumMap<>(ConceptSearch.Shape.class);
    private static final String[] PAGE_BY_SHAPE = new String[8];

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

    public record ConceptRow(String id, long schemeId, String schemeNamespace, String schemeSlug, String status,
            String creatorUsername, List<String> contributors, Instant createdAt, Instant updatedAt) {
        static final String COLUMNS = "c.id, c.scheme_id, s.namespace, s.slug, c.status, c.creator_username, c.contributors, "
                + "c.created_at, c.updated_at";

        static ConceptRow from(Row r) {
            return new ConceptRow(r.getString("id"), r.getLong("scheme_id"), r.getString("namespace"), r.getString("slug"),
                    r.getString("status"), r.getString("creator_username"), Arrays.asList(r.getArrayOfStrings("contributors")),
                    r.getOffsetDateTime("created_at").toInstant(), r.getOffsetDateTime("updated_at").toInstant());
        }
    }

    /** Everything a Concept shows, for a set of concepts. */
    public record Details(Map<String, List<ConceptInput.Label>> labels, Map<String, List<ConceptInput.Note>> notes,
            Map<String, List<String>> broader, Map<String, List<String>> narrower, Map<String, List<ConceptInput.Match>> matches,
            Map<String, Map<String, String>> preferredByLanguage) {
    }

    public Uni<String> insert(long schemeId, ConceptInput input, long creatorId, String creatorUsername) {
        return pool.withTransaction(conn -> conn
                .preparedQuery("UPDATE scheme SET concept_counter = concept_counter + 1, " + SchemeRepository.NEW_REVISION
                        + " WHERE id = $1 RETURNING concept_counter")
                .execute(Tuple.of(schemeId))
                .map(rows -> ConceptIds.next(rows.iterator().next().getInteger("concept_counter")))
                .call(id -> requireBroaderInScheme(conn, schemeId, input.broader()))
                .call(id -> conn.preparedQuery("INSERT INTO concept (id, scheme_id, namespace, status, creator_id, "
                                + "creator_username, contributors) SELECT $1, $2, s.namespace, $3, $4, $5, $6 FROM scheme s "
                                + "WHERE s.id = $2")
                        .execute(Tuple.of(id, schemeId, input.status(), creatorId, creatorUsername, new String[] {creatorUsername})))
                .call(id -> writeParts(conn, id, input)));
    }

    private Uni<Void> requireBroaderInScheme(SqlConnection conn, long schemeId, List<String> broader) {
        if (broader.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return conn.preparedQuery("SELECT id FROM concept WHERE scheme_id = $1 AND id = ANY($2)")
                .execute(Tuple.of(schemeId, broader.toArray(String[]::new)))
                .map(rows -> {
                    List<String> found = new ArrayList<>();
                    rows.forEach(r -> found.add(r.getString("id")));
                    for (int i = 0; i < broader.size(); i++) {
                        if (!found.contains(broader.get(i))) {
                            throw new InvalidReference("broader[" + i + "]", "is not a concept of this scheme");
                        }
                    }
                    return null;
                });
    }

    private Uni<Void> writeParts(SqlConnection conn, String id, ConceptInput input) {
        return writeParts(conn, List.of(id), List.of(input));
    }

    /** Labels, notes, broader links and matches of many concepts: four statements, whatever their number. */
    public Uni<Void> writeParts(SqlConnection conn, List<String> ids, List<ConceptInput> inputs) {
        List<Object[]> labels = new ArrayList<>();
        List<Object[]> notes = new ArrayList<>();
        List<Object[]> broader = new ArrayList<>();
        List<Object[]> matches = new ArrayList<>();
        for (int c = 0; c < ids.size(); c++) {
            String id = ids.get(c);
            ConceptInput input = inputs.get(c);
            for (int i = 0; i < input.labels().size(); i++) {
                ConceptInput.Label l = input.labels().get(i);
                labels.add(new Object[] {id, i, l.type(), l.body(), l.language(), l.abbreviation(), l.vernacular(), l.historical()});
            }
            for (int i = 0; i < input.notes().size(); i++) {
                ConceptInput.Note n = input.notes().get(i);
                notes.add(new Object[] {id, i, n.type(), n.body(), n.language()});
            }
            for (String b : input.broader()) {
                broader.add(new Object[] {id, b});
            }
            for (int i = 0; i < input.matches().size(); i++) {
                ConceptInput.Match m = input.matches().get(i);
                matches.add(new Object[] {id, i, m.property(), m.url()});
            }
        }
        return insertColumns(conn, "label (concept_id, position, type, body, language, abbreviation, vernacular, historical)",
                new String[] {"text", "int", "text", "text", "text", "bool", "text", "text"}, labels)
                .chain(() -> insertColumns(conn, "note (concept_id, position, type, body, language)",
                        new String[] {"text", "int", "text", "text", "text"}, notes))
                .chain(() -> insertColumns(conn, "broader (concept_id, broader_id)", new String[] {"text", "text"}, broader))
                .chain(() -> insertColumns(conn, "match (concept_id, position, property, url)",
                        new String[] {"text", "int", "text", "text"}, matches));
    }

    /** One INSERT ... SELECT FROM unnest(arrays) for rows given as tuples of the named column types. */
    private static Uni<Void> insertColumns(SqlConnection conn, String target, String[] types, List<Object[]> rows) {
        if (rows.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Tuple args = Tuple.tuple();
        StringBuilder unnest = new StringBuilder();
        for (int col = 0; col < types.length; col++) {
            Object[] column = switch (types[col]) {
                case "int" -> new Integer[rows.size()];
                case "bool" -> new Boolean[rows.size()];
                default -> new String[rows.size()];
            };
            for (int r = 0; r < rows.size(); r++) {
                column[r] = rows.get(r)[col];
            }
            args.addValue(column);
            unnest.append(col == 0 ? "" : ", ").append('$').append(col + 1).append("::").append(types[col]).append("[]");
        }
        return conn.preparedQuery("INSERT INTO " + target + " SELECT * FROM unnest(" + unnest + ")").execute(args)
                .replaceWithVoid();
    }

    /**
     * Replaces what a concept says (status, labels, notes, broader, matches) and records the
     * editor among its contributors. A broader concept must be in the scheme and may not lead back
     * to this concept: a cycle is refused.
     */
    public Uni<Void> replace(long schemeId, String id, ConceptInput input, String editor) {
        return pool.withTransaction(conn -> SchemeRepository.newRevision(conn, schemeId)
                .chain(() -> conn.preparedQuery("SELECT id FROM concept WHERE scheme_id = $1 AND id = $2 FOR UPDATE")
                        .execute(Tuple.of(schemeId, id)))
                .map(rows -> {
                    if (rows.rowCount() == 0) {
                        throw new RowMissing("No concept has the id '" + id + "'.");
                    }
                    return null;
                })
                .call(() -> requireBroaderInScheme(conn, schemeId, input.broader()))
                .call(() -> refuseCycle(conn, id, input.broader()))
                .call(() -> conn.preparedQuery("DELETE FROM label WHERE concept_id = $1").execute(Tuple.of(id)))
                .call(() -> conn.preparedQuery("DELETE FROM note WHERE concept_id = $1").execute(Tuple.of(id)))
                .call(() -> conn.preparedQuery("DELETE FROM broader WHERE concept_id = $1").execute(Tuple.of(id)))
                .call(() -> conn.preparedQuery("DELETE FROM match WHERE concept_id = $1").execute(Tuple.of(id)))
                .call(() -> writeParts(conn, id, input))
                .call(() -> conn.preparedQuery("UPDATE concept SET status = $2, updated_at = date_trunc('milliseconds', now()), "
                                + "contributors = CASE WHEN $3 = ANY(contributors) THEN contributors ELSE contributors || $3 END "
                                + "WHERE id = $1")
                        .execute(Tuple.of(id, input.status(), editor)))
                .replaceWithVoid());
    }

    private Uni<Void> refuseCycle(SqlConnection conn, String id, List<String> broader) {
        if (broader.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return conn.preparedQuery("WITH RECURSIVE up(id) AS (SELECT unnest($1::text[]) "
                        + "UNION SELECT b.broader_id FROM broader b JOIN up ON b.concept_id = up.id) "
                        + "SELECT 1 FROM up WHERE id = $2 LIMIT 1")
                .execute(Tuple.of(broader.toArray(String[]::new), id))
                .map(rows -> {
                    if (rows.rowCount() > 0) {
                        throw new InvalidReference("broader", "would make the concept broader than itself (a cycle)");
                    }
                    return null;
                });
    }

    /** Its relations go with it: concepts narrower than it lose that broader link. */
    public Uni<Boolean> delete(long schemeId, String id) {
        return pool.withTransaction(conn -> SchemeRepository.newRevision(conn, schemeId)
                .chain(() -> conn.preparedQuery("DELETE FROM concept WHERE scheme_id = $1 AND id = $2")
                        .execute(Tuple.of(schemeId, id)))
                .map(rows -> rows.rowCount() > 0));
    }


    public Uni<ConceptRow> one(long schemeId, String id) {
        return pool.preparedQuery("SELECT " + ConceptRow.COLUMNS + " FROM concept c JOIN scheme s ON s.id = c.scheme_id "
                        + "WHERE c.scheme_id = $1 AND c.id = $2")
                .execute(Tuple.of(schemeId, id)).map(rows -> rows.rowCount() == 0 ? null : ConceptRow.from(rows.iterator().next()));
    }

    /**
     * A page of a namespace's concepts (of one scheme when {@code schemeId} is given) ordered by
     * update time; one row more than asked, to tell whether there is a next page.
     */
    public Uni<List<ConceptRow>> page(String namespace, Long schemeId, OffsetDateTime since, boolean descending, int limit,
            long offset) {
        Tuple args = Tuple.of(namespace);
        if (schemeId != null) {
            args.addValue(schemeId);
        }
        if (since != null) {
            args.addValue(since);
        }
        return pool.preparedQuery(PAGE_BY_SHAPE[(schemeId != null ? 4 : 0) | (since != null ? 2 : 0) | (descending ? 1 : 0)])
                .execute(args.addValue(limit).addValue(offset)).map(rows -> {
                    List<ConceptRow> list = new ArrayList<>();
                    rows.forEach(r -> list.add(ConceptRow.from(r)));
                    return list;
                });
    }

    /**
     * Concepts with a label matching a search (see {@link ConceptSearch}), best first: a concept
     * ranks by its best matching label, Preferred before Alternative before Hidden, then by that
     * label's folded text and the concept id, so pages are stable.
     */
    public Uni<List<ConceptRow>> search(String namespace, Long schemeId, ConceptSearch search, OffsetDateTime since,
            int limit, long offset) {
        return pool.preparedQuery(SEARCH_BY_SHAPE.get(search.shape()))
                .execute(Tuple.tuple().addValue(search.query()).addValue(search.language()).addValue(namespace)
                        .addValue(schemeId).addValue(since).addValue(limit).addValue(offset))
                .map(rows -> {
                    List<ConceptRow> list = new ArrayList<>();
                    rows.forEach(r -> list.add(ConceptRow.from(r)));
                    return list;
                });
    }

    /** A scheme's concepts in id order, from after {@code afterId} (null: from the first). */
    public Uni<List<ConceptRow>> byId(long schemeId, String afterId, int limit) {
        return pool.preparedQuery("SELECT " + ConceptRow.COLUMNS + " FROM concept c JOIN scheme s ON s.id = c.scheme_id "
                        + "WHERE c.scheme_id = $1 AND c.id > $2 ORDER BY c.id LIMIT $3")
                .execute(Tuple.of(schemeId, afterId == null ? "" : afterId, limit)).map(rows -> {
                    List<ConceptRow> list = new ArrayList<>();
                    rows.forEach(r -> list.add(ConceptRow.from(r)));
                    return list;
                });
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

    public Uni<Details> details(List<String> ids) {
        Map<String, List<ConceptInput.Label>> labels = new HashMap<>();
        Map<String, List<ConceptInput.Note>> notes = new HashMap<>();
        Map<String, List<String>> broader = new HashMap<>();
        Map<String, List<String>> narrower = new HashMap<>();
        Map<String, List<ConceptInput.Match>> matches = new HashMap<>();
        Map<String, Map<String, String>> preferred = new HashMap<>();
        return pool.preparedQuery(DETAILS_SQL).execute(Tuple.of((Object) ids.toArray(String[]::new))).map(rows -> {
            for (Row r : rows) {
                String id = r.getString(1);
                switch (r.getString(0)) {
                    case "l" -> {
                        String type = r.getString(3);
                        labels.computeIfAbsent(id, k -> new ArrayList<>()).add(new ConceptInput.Label(type, r.getString(4),
                                r.getString(5), r.getBoolean(6), r.getString(7), r.getString(8)));
                        if ("Preferred".equals(type)) {
                            preferred.computeIfAbsent(id, k -> new LinkedHashMap<>()).put(r.getString(5), r.getString(4));
                        }
                    }
                    case "n" -> notes.computeIfAbsent(id, k -> new ArrayList<>())
                            .add(new ConceptInput.Note(r.getString(3), r.getString(4), r.getString(5)));
                    case "b" -> broader.computeIfAbsent(id, k -> new ArrayList<>()).add(r.getString(4));
                    case "w" -> narrower.computeIfAbsent(id, k -> new ArrayList<>()).add(r.getString(4));
                    case "m" -> matches.computeIfAbsent(id, k -> new ArrayList<>())
                            .add(new ConceptInput.Match(r.getString(3), r.getString(4)));
                    default -> preferred.computeIfAbsent(id, k -> new LinkedHashMap<>()).put(r.getString(5), r.getString(4));
                }
            }
            return new Details(labels, notes, broader, narrower, matches, preferred);
        });
    }
}
