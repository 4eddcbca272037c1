package org.ziggurat.vocab.concepts;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.data.InvalidReference;
import org.ziggurat.platform.data.RowMissing;
import org.ziggurat.vocab.schemes.SchemeRepository;

import java.time.OffsetDateTime;
import java.util.ArrayList;
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

    private static Uni<Void> writeParts(SqlConnection conn, String id, ConceptInput input) {
        return ConceptParts.write(conn, List.of(id), List.of(input));
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
        return pool.preparedQuery(ConceptStatements.PAGE_BY_SHAPE[(schemeId != null ? 4 : 0) | (since != null ? 2 : 0) | (descending ? 1 : 0)])
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
        return pool.preparedQuery(ConceptStatements.SEARCH_BY_SHAPE.get(search.shape()))
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

    /** Everything the views of these concepts show besides their rows, in one statement (see its SQL). */
    public Uni<Details> details(List<String> ids) {
        Map<String, List<ConceptInput.Label>> labels = new HashMap<>();
        Map<String, List<ConceptInput.Note>> notes = new HashMap<>();
        Map<String, List<String>> broader = new HashMap<>();
        Map<String, List<String>> narrower = new HashMap<>();
        Map<String, List<ConceptInput.Match>> matches = new HashMap<>();
        Map<String, Map<String, String>> preferred = new HashMap<>();
        return pool.preparedQuery(ConceptStatements.DETAILS_SQL).execute(Tuple.of((Object) ids.toArray(String[]::new))).map(rows -> {
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
