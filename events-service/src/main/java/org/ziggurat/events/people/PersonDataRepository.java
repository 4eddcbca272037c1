package org.ziggurat.events.people;

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
 * What events-service holds about one person, read for their export and erased when their account
 * is deleted: the repositories of their namespace go with every event, item and commit in them;
 * the events they sent elsewhere stay, credited to no one ({@link #GHOST}).
 */
@ApplicationScoped
public class PersonDataRepository implements HeldPersonData {

    private static final Logger LOG = Logger.getLogger(PersonDataRepository.class);

    /** The name a deleted person's events elsewhere are credited to (reserved in directory-service). */
    public static final String GHOST = "ghost";
    /** The most events one export lists; past it, {@code truncated} says so. */
    static final int MOST = 50_000;

    private final Pool pool;

    PersonDataRepository(Pool pool) {
        this.pool = pool;
    }

    /** The data events the person sent, anywhere: what, where, when, and with which application. */
    @Override
    public Uni<JsonObject> export(long personId) {
        return pool.preparedQuery("SELECT json_build_object('id', e.id, 'namespace', r.namespace, 'repository', r.name, "
                        + "'kind', e.kind, 'note', e.note, 'client_id', e.client_id, 'commits_count', e.commits_count, "
                        + "'created_at', e.created_at) AS row FROM data_event e JOIN repository r ON r.id = e.repository_id "
                        + "WHERE e.creator_id = $1 ORDER BY e.id LIMIT " + (MOST + 1))
                .execute(Tuple.of(personId))
                .map(rows -> {
                    JsonArray events = new JsonArray();
                    rows.forEach(row -> events.add(row.getJsonObject("row")));
                    boolean truncated = events.size() > MOST;
                    return new JsonObject().put("data_events", truncated ? new JsonArray(events.getList().subList(0, MOST)) : events)
                            .put("truncated", truncated);
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
     * Erases the person: their namespace's repositories with everything in them and its webhooks, and their name
     * from the events they sent elsewhere. Idempotent. How many rows changed.
     */
    public Uni<Long> erase(long personId, String username) {
        String namespace = username.toLowerCase(java.util.Locale.ROOT);
        String owned = "SELECT id FROM repository WHERE namespace = $1";
        // The namespace's webhooks go with it (their deliveries and log by cascade).
        return pool.withTransaction(conn -> conn.preparedQuery("DELETE FROM webhook_subscription WHERE namespace = $1")
                .execute(Tuple.of(namespace)).map(rows -> (long) rows.rowCount())
                .chain(sofar -> conn.preparedQuery("DELETE FROM data_commit WHERE event_id IN (SELECT id FROM "
                        + "data_event WHERE repository_id IN (" + owned + "))").execute(Tuple.of(namespace))
                        .map(rows -> sofar + rows.rowCount()))
                .chain(sofar -> conn.preparedQuery("DELETE FROM item WHERE repository_id IN (" + owned + ")")
                        .execute(Tuple.of(namespace)).map(rows -> sofar + rows.rowCount()))
                .chain(sofar -> conn.preparedQuery("DELETE FROM data_event WHERE repository_id IN (" + owned + ")")
                        .execute(Tuple.of(namespace)).map(rows -> sofar + rows.rowCount()))
                .chain(sofar -> conn.preparedQuery("DELETE FROM repository WHERE namespace = $1")
                        .execute(Tuple.of(namespace)).map(rows -> sofar + rows.rowCount()))
                .chain(sofar -> conn.preparedQuery("UPDATE data_event SET creator_username = $2 WHERE creator_id = $1 "
                                + "AND creator_username <> $2").execute(Tuple.of(personId, GHOST))
                        .map(rows -> sofar + rows.rowCount())));
    }
}
