package org.ziggurat.events.data;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The commits of one event, inside its transaction: the items found or made, locked in id order
 * (so concurrent events on one item queue up), each commit applied to the revision before it,
 * and the commits and the items' new revisions written, a fixed number of statements whatever
 * their number (arrays through unnest).
 */
@ApplicationScoped
class CommitWriter {

    private final JsonColumns json;
    private final ChangesetWork changesetWork;

    CommitWriter(JsonColumns json, ChangesetWork changesetWork) {
        this.json = json;
        this.changesetWork = changesetWork;
    }

    /** The commits as stored, in the event's order. */
    Uni<List<EventRepository.CommitRow>> write(SqlConnection conn, long repositoryId, long eventId,
            List<EventInput.CommitInput> commits) {
        TreeSet<EventInput.Identifier> keys = new TreeSet<>();
        commits.forEach(c -> keys.add(c.identifier()));
        String[] ids = keys.stream().map(EventInput.Identifier::id).toArray(String[]::new);
        String[] types = keys.stream().map(EventInput.Identifier::type).toArray(String[]::new);
        String[] agents = keys.stream().map(EventInput.Identifier::agent).toArray(String[]::new);
        return conn.preparedQuery("INSERT INTO item (repository_id, identifier_id, identifier_type, identifier_agent, "
                        + "revision, payload) SELECT $1, k.i, k.t, k.a, 0, '{}'::jsonb "
                        + "FROM unnest($2::text[], $3::text[], $4::text[]) AS k(i, t, a) ORDER BY k.i, k.t, k.a "
                        + "ON CONFLICT (repository_id, identifier_id, identifier_type, identifier_agent) DO NOTHING")
                .execute(Tuple.of(repositoryId, ids, types, agents))
                .chain(() -> conn.preparedQuery("SELECT id, identifier_id, identifier_type, identifier_agent, revision, "
                                + "payload::text AS payload FROM item WHERE repository_id = $1 AND (identifier_id, "
                                + "identifier_type, identifier_agent) IN (SELECT * FROM unnest($2::text[], $3::text[], $4::text[])) "
                                + "ORDER BY id FOR UPDATE")
                        .execute(Tuple.of(repositoryId, ids, types, agents)))
                .chain(rows -> {
                    Map<EventInput.Identifier, ItemRevisions.Item> items = new HashMap<>();
                    rows.forEach(r -> items.put(new EventInput.Identifier(r.getString("identifier_id"),
                            r.getString("identifier_type"), r.getString("identifier_agent")),
                            new ItemRevisions.Item(r.getLong("id"), r.getInteger("revision"), json.read(r.getString("payload")))));
                    // Small changesets (every ordinary event) right here; large ones on their own
                    // bounded pool, so that no event loop waits for them (the items stay locked).
                    return ItemRevisions.large(items.values(), commits)
                            ? changesetWork.run(() -> ItemRevisions.apply(commits, items)).map(revised -> Map.entry(items, revised))
                            : Uni.createFrom().item(Map.entry(items, ItemRevisions.apply(commits, items)));
                })
                .chain(applied -> {
                    Map<EventInput.Identifier, ItemRevisions.Item> items = applied.getKey();
                    ItemRevisions.Revised revised = applied.getValue();
                    int n = commits.size();
                    Integer[] positions = revised.positions();
                    String[] commitTypes = revised.commitTypes();
                    Long[] itemIds = revised.itemIds();
                    Integer[] revisions = revised.revisions();
                    String[] payloads = revised.payloads();
                    String[] changesets = revised.changesets();
                    List<Long> finalIds = new ArrayList<>();
                    List<Integer> finalRevisions = new ArrayList<>();
                    List<String> finalPayloads = new ArrayList<>();
                    items.values().stream().filter(ItemRevisions.Item::changed).forEach(s -> {
                        finalIds.add(s.id);
                        finalRevisions.add(s.revision);
                        finalPayloads.add(s.payload.toString());
                    });
                    EventRepository.CommitRow[] stored = new EventRepository.CommitRow[n];
                    return conn.preparedQuery("INSERT INTO data_commit (event_id, position, type, item_id, revision, payload, "
                                    + "changeset) SELECT $1, u.p, u.t, u.i, u.r, u.pl::jsonb, u.cs::jsonb FROM unnest($2::int[], "
                                    + "$3::text[], $4::bigint[], $5::int[], $6::text[], $7::text[]) AS u(p, t, i, r, pl, cs) "
                                    + "RETURNING id, position, payload::text AS payload, changeset::text AS changeset, created_at")
                            .execute(Tuple.tuple().addValue(eventId).addValue(positions).addValue(commitTypes)
                                    .addValue(itemIds).addValue(revisions).addValue(payloads).addValue(changesets))
                            .invoke(inserted -> inserted.forEach(r -> {
                                int i = r.getInteger("position");
                                EventInput.CommitInput c = commits.get(i);
                                // As the database holds them (jsonb's key order and numbers), as a read answers.
                                stored[i] = new EventRepository.CommitRow(r.getLong("id"), c.type(), c.identifier(), revisions[i],
                                        json.read(r.getString("payload")), json.read(r.getString("changeset")),
                                        r.getOffsetDateTime("created_at"));
                            }))
                            .chain(() -> conn.preparedQuery("UPDATE item SET revision = v.r, payload = v.pl::jsonb "
                                            + "FROM unnest($1::bigint[], $2::int[], $3::text[]) AS v(id, r, pl) WHERE item.id = v.id")
                                    .execute(Tuple.of(finalIds.toArray(Long[]::new), finalRevisions.toArray(Integer[]::new),
                                            finalPayloads.toArray(String[]::new))))
                            .map(updated -> List.of(stored));
                });
    }
}
