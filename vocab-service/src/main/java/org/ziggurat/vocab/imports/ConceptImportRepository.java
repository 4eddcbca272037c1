package org.ziggurat.vocab.imports;

import java.util.Locale;
import java.util.Objects;
import java.util.function.BiFunction;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.data.InvalidReference;
import org.ziggurat.vocab.concepts.ConceptIds;
import org.ziggurat.vocab.concepts.ConceptInput;
import org.ziggurat.vocab.concepts.ConceptParts;
import org.ziggurat.vocab.rdf.SkosDocument;
import org.ziggurat.vocab.schemes.SchemeRepository;
import org.ziggurat.vocab.schemes.SchemeRow;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes an imported document's concepts into a scheme, all or nothing (one transaction). A concept whose
 * IRI is the URL of a concept of this very scheme (a re-import of an export) replaces that
 * concept; every other concept is created with a new id. Broader links resolve to concepts of the
 * document or of the scheme; the scheme's hierarchy must stay free of cycles.
 */
@ApplicationScoped
public class ConceptImportRepository {

    static final int BATCH = 1000;

    private final Pool pool;

    ConceptImportRepository(Pool pool) {
        this.pool = pool;
    }

    public record Outcome(int created, int replaced, List<String> warnings) {
    }

    /**
     * Writes the concepts; {@code finish} runs last in the same transaction (it records the job's
     * success, and fails if the job is no longer this run's), so an import commits exactly once.
     */
    public Uni<Outcome> write(SchemeRow scheme, List<SkosDocument.Concept> document, long creatorId, String creatorUsername,
            IntFunction<Uni<Void>> progress, BiFunction<SqlConnection, Outcome, Uni<Void>> finish) {
        Pattern own = Pattern.compile(".*/" + Pattern.quote(scheme.namespace() + "/vocab/schemes/" + scheme.slug())
                + "/concepts/(" + ConceptIds.FORM.pattern() + ")$", Pattern.CASE_INSENSITIVE);
        List<String> warnings = new ArrayList<>();
        return pool.withTransaction(conn -> SchemeRepository.newRevision(conn, scheme.id())
                .chain(() -> existing(conn, scheme.id(), ownIds(own, document)))
                .chain(existing -> {
                    Map<String, String> idOf = new HashMap<>();
                    List<String> fresh = new ArrayList<>();
                    for (SkosDocument.Concept c : document) {
                        String own1 = ownId(own, c.iri());
                        if (own1 != null && existing.contains(own1)) {
                            idOf.put(c.iri(), own1);
                        } else if (!idOf.containsKey(c.iri())) {
                            fresh.add(c.iri());
                        }
                    }
                    int replaced = idOf.size();
                    return newIds(conn, scheme.id(), fresh.size()).chain(ids -> {
                        for (int i = 0; i < fresh.size(); i++) {
                            idOf.put(fresh.get(i), ids.get(i));
                        }
                        List<String> targets = new ArrayList<>();
                        document.forEach(c -> c.broader().forEach(b -> {
                            String id = ownId(own, b);
                            if (!idOf.containsKey(b) && id != null) {
                                targets.add(id);
                            }
                        }));
                        return existing(conn, scheme.id(), targets).chain(inScheme -> {
                            List<String> ids2 = new ArrayList<>();
                            List<ConceptInput> inputs = new ArrayList<>();
                            for (SkosDocument.Concept c : document) {
                                List<String> broader = new ArrayList<>();
                                for (String b : c.broader()) {
                                    String inSchemeId = ownId(own, b);
                                    String id = idOf.getOrDefault(b,
                                            inSchemeId != null && inScheme.contains(inSchemeId) ? inSchemeId : null);
                                    if (id == null) {
                                        warnings.add("The broader concept " + b + " of " + c.iri()
                                                + " is neither in the document nor in the scheme; the link was left aside.");
                                    } else if (!broader.contains(id)) {
                                        broader.add(id);
                                    }
                                }
                                ConceptInput in = c.input();
                                ids2.add(idOf.get(c.iri()));
                                inputs.add(new ConceptInput(in.status(), in.labels(), in.notes(), broader, in.matches()));
                            }
                            Set<String> replacedIds = new HashSet<>(idOf.values());
                            // One removal per id: Set.removeAll(list) asks list.contains for each member of the
                            // set when the set is not larger, 200 million string comparisons for a first
                            // import of 20,000 concepts, seconds on the event loop (the heartbeat waited, and
                            // another replica claimed the import again).
                            ids.forEach(replacedIds::remove);
                            return clear(conn, replacedIds, inputs, ids2, creatorUsername)
                                    .chain(() -> insertNew(conn, scheme, ids, ids2, inputs, creatorId, creatorUsername))
                                    .chain(() -> writeInBatches(conn, ids2, inputs, progress, 0))
                                    .chain(() -> refuseCycles(conn, scheme.id(), idOf))
                                    .map(v -> new Outcome(fresh.size(), replaced, warnings))
                                    .call(outcome -> finish.apply(conn, outcome));
                        });
                    });
                }));
    }

    private static String ownId(Pattern own, String iri) {
        Matcher m = own.matcher(iri == null ? "" : iri);
        return m.matches() ? m.group(1).toLowerCase(Locale.ROOT) : null;
    }

    private static List<String> ownIds(Pattern own, List<SkosDocument.Concept> document) {
        return document.stream().map(c -> ownId(own, c.iri())).filter(Objects::nonNull).toList();
    }

    private static Uni<Set<String>> existing(SqlConnection conn, long schemeId, List<String> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return conn.preparedQuery("SELECT id FROM concept WHERE scheme_id = $1 AND id = ANY($2)")
                .execute(Tuple.of(schemeId, ids.toArray(String[]::new))).map(rows -> {
                    Set<String> found = new HashSet<>();
                    rows.forEach(r -> found.add(r.getString("id")));
                    return found;
                });
    }

    /** {@code n} ids from the scheme's counter, taken at once. */
    private static Uni<List<String>> newIds(SqlConnection conn, long schemeId, int n) {
        if (n == 0) {
            return Uni.createFrom().item(List.of());
        }
        return conn.preparedQuery("UPDATE scheme SET concept_counter = concept_counter + $2 WHERE id = $1 "
                        + "RETURNING concept_counter").execute(Tuple.of(schemeId, n))
                .map(rows -> {
                    int last = rows.iterator().next().getInteger("concept_counter");
                    List<String> ids = new ArrayList<>(n);
                    for (int counter = last - n + 1; counter <= last; counter++) {
                        ids.add(ConceptIds.next(counter));
                    }
                    return ids;
                });
    }

    /** Replaced concepts lose what they said and take the new status; the importer joins their contributors. */
    private static Uni<Void> clear(SqlConnection conn, Set<String> replaced, List<ConceptInput> inputs, List<String> ids,
            String editor) {
        if (replaced.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        String[] gone = replaced.toArray(String[]::new);
        String[][] status = statusOf(replaced, ids, inputs);
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (String table : List.of("label", "note", "broader", "match")) {
            chain = chain.chain(() -> conn.preparedQuery("DELETE FROM " + table + " WHERE concept_id = ANY($1)")
                    .execute(Tuple.of((Object) gone)).replaceWithVoid());
        }
        return chain.chain(() -> conn.preparedQuery("UPDATE concept c SET status = n.status, "
                        + "updated_at = date_trunc('milliseconds', now()), contributors = CASE WHEN $3 = ANY(c.contributors) "
                        + "THEN c.contributors ELSE c.contributors || $3 END "
                        + "FROM unnest($1::text[], $2::text[]) AS n(id, status) WHERE c.id = n.id")
                .execute(Tuple.of(status[0], status[1], editor))
                .replaceWithVoid());
    }

    /** The ids among {@code which} and their statuses, as two parallel arrays. */
    private static String[][] statusOf(Set<String> which, List<String> ids, List<ConceptInput> inputs) {
        List<String> chosen = new ArrayList<>();
        List<String> statuses = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            if (which.contains(ids.get(i))) {
                chosen.add(ids.get(i));
                statuses.add(inputs.get(i).status());
            }
        }
        return new String[][] {chosen.toArray(String[]::new), statuses.toArray(String[]::new)};
    }

    private static Uni<Void> insertNew(SqlConnection conn, SchemeRow scheme, List<String> fresh, List<String> ids,
            List<ConceptInput> inputs, long creatorId, String creatorUsername) {
        if (fresh.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        String[][] status = statusOf(new HashSet<>(fresh), ids, inputs);
        return conn.preparedQuery("INSERT INTO concept (id, scheme_id, namespace, status, creator_id, creator_username, "
                        + "contributors) SELECT n.id, $3, $4, n.status, $5, $6, ARRAY[$6] "
                        + "FROM unnest($1::text[], $2::text[]) AS n(id, status)")
                .execute(Tuple.of(status[0], status[1], scheme.id(),
                        scheme.namespace(), creatorId, creatorUsername))
                .replaceWithVoid();
    }

    private Uni<Void> writeInBatches(SqlConnection conn, List<String> ids, List<ConceptInput> inputs,
            IntFunction<Uni<Void>> progress, int from) {
        if (from >= ids.size()) {
            return Uni.createFrom().voidItem();
        }
        int to = Math.min(ids.size(), from + BATCH);
        return ConceptParts.write(conn, ids.subList(from, to), inputs.subList(from, to))
                .chain(() -> progress.apply(to))
                .chain(() -> writeInBatches(conn, ids, inputs, progress, to));
    }

    /** The scheme's whole hierarchy, walked once: a cycle anywhere refuses the import. */
    private static Uni<Void> refuseCycles(SqlConnection conn, long schemeId, Map<String, String> idOf) {
        return conn.preparedQuery("SELECT b.concept_id, b.broader_id FROM broader b JOIN concept c ON c.id = b.concept_id "
                        + "WHERE c.scheme_id = $1").execute(Tuple.of(schemeId))
                .map(rows -> {
                    Map<String, List<String>> up = new HashMap<>();
                    rows.forEach(r -> up.computeIfAbsent(r.getString(0), k -> new ArrayList<>()).add(r.getString(1)));
                    String cycle = Hierarchy.findCycle(up);
                    if (cycle != null) {
                        String iri = idOf.entrySet().stream().filter(e -> e.getValue().equals(cycle)).map(Map.Entry::getKey)
                                .findFirst().orElse(cycle);
                        throw new InvalidReference(iri + " broader", "is part of a cycle: a concept would be broader than itself");
                    }
                    return null;
                });
    }

    /**
     * Fresh planner statistics of the concept tables, in the import's transaction: a large import
     * changes their shape at once, and without them the planner kept estimating an empty scheme
     * and sorted every concept of the scheme for each page read, until autovacuum's next analyze.
     */
    public Uni<Void> refreshStatistics(SqlConnection conn) {
        return conn.query("ANALYZE concept, label, note, broader, match").execute().replaceWithVoid();
    }
}
