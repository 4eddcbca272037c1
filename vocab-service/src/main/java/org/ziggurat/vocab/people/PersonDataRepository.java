package org.ziggurat.vocab.people;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.platform.people.PersonErasure;
import org.ziggurat.platform.rest.people.HeldPersonData;

/**
 * What vocab-service holds about one person, read for their export and erased when their account
 * is deleted: the vocabularies of their namespace go; what they made in others' stays, credited
 * to no one ({@link #GHOST}).
 */
@ApplicationScoped
public class PersonDataRepository implements HeldPersonData {

    private static final Logger LOG = Logger.getLogger(PersonDataRepository.class);

    /** The name a deleted person's work elsewhere is credited to (reserved in directory-service). */
    public static final String GHOST = "ghost";
    /** The most of each kind one export lists; past it, {@code truncated} says so. */
    static final int MOST = 50_000;

    private final Pool pool;

    PersonDataRepository(Pool pool) {
        this.pool = pool;
    }

    /** The schemes and concepts the person created, anywhere. */
    @Override
    public Uni<JsonObject> export(long personId) {
        Uni<JsonArray> schemes = pool.preparedQuery("SELECT json_build_object('namespace', namespace, 'slug', slug, "
                        + "'abbr', abbr, 'title', title, 'definition', definition, 'created_at', created_at, "
                        + "'updated_at', updated_at) AS row FROM scheme WHERE creator_id = $1 ORDER BY id LIMIT " + (MOST + 1))
                .execute(Tuple.of(personId)).map(PersonDataRepository::rows);
        Uni<JsonArray> concepts = pool.preparedQuery("SELECT json_build_object('id', c.id, 'namespace', s.namespace, "
                        + "'scheme', s.slug, 'status', c.status, 'created_at', c.created_at, 'updated_at', c.updated_at, "
                        + "'labels', (SELECT coalesce(json_agg(json_build_object('type', l.type, 'body', l.body, "
                        + "'language', l.language) ORDER BY l.position), '[]'::json) FROM label l WHERE l.concept_id = c.id)) AS row "
                        + "FROM concept c JOIN scheme s ON s.id = c.scheme_id WHERE c.creator_id = $1 ORDER BY c.created_at, c.id "
                        + "LIMIT " + (MOST + 1))
                .execute(Tuple.of(personId)).map(PersonDataRepository::rows);
        return Uni.combine().all().unis(schemes, concepts).asTuple().map(both -> {
            JsonObject part = new JsonObject().put("schemes", cut(both.getItem1())).put("concepts", cut(both.getItem2()));
            part.put("truncated", both.getItem1().size() > MOST || both.getItem2().size() > MOST);
            return part;
        });
    }

    /** Erases the person here ({@link #erase(long, String)}), and says so in the log. */
    @Override
    public Uni<Void> erase(PersonErasure erasure) {
        return erase(erasure.personId(), erasure.username())
                .invoke(changed -> LOG.infof("person erased: person_id=%d rows=%d", erasure.personId(), changed))
                .replaceWithVoid();
    }

    /**
     * Erases the person: their namespace's vocabularies, and their name from what they made or
     * changed elsewhere. Idempotent: a second run finds nothing to change. How many rows changed.
     */
    public Uni<Long> erase(long personId, String username) {
        String namespace = username.toLowerCase(java.util.Locale.ROOT);
        return pool.withTransaction(conn -> conn.preparedQuery("DELETE FROM scheme WHERE namespace = $1")
                .execute(Tuple.of(namespace)).map(rows -> (long) rows.rowCount())
                // Every scheme whose pages show the name gets a new revision (RenderedPages), first.
                .chain(deleted -> conn.preparedQuery("UPDATE scheme SET revision = nextval('scheme_revision'), "
                                + "creator_username = CASE WHEN creator_id = $1 THEN $3 ELSE creator_username END "
                                + "WHERE (creator_id = $1 AND creator_username <> $3) OR id IN (SELECT scheme_id FROM concept "
                                + "WHERE (creator_id = $1 AND creator_username <> $3) OR $2 = ANY (contributors))")
                        .execute(Tuple.of(personId, username, GHOST)).map(rows -> deleted + rows.rowCount()))
                .chain(sofar -> conn.preparedQuery("UPDATE concept SET creator_username = CASE WHEN creator_id = $1 THEN $3 "
                                + "ELSE creator_username END, contributors = array_replace(contributors, $2, $3) "
                                + "WHERE (creator_id = $1 AND creator_username <> $3) OR $2 = ANY (contributors)")
                        .execute(Tuple.of(personId, username, GHOST)).map(rows -> sofar + rows.rowCount())));
    }

    private static JsonArray rows(io.vertx.mutiny.sqlclient.RowSet<io.vertx.mutiny.sqlclient.Row> rows) {
        JsonArray out = new JsonArray();
        rows.forEach(row -> out.add(row.getJsonObject("row")));
        return out;
    }

    private static JsonArray cut(JsonArray all) {
        return all.size() > MOST ? new JsonArray(all.getList().subList(0, MOST)) : all;
    }
}
