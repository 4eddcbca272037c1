package org.ziggurat.platform.rest.queue;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A queue's statements on its table ({@link QueueTable}). A claim is one statement: the due rows,
 * locked with FOR UPDATE SKIP LOCKED (two replicas never take one row), their due time moved past a
 * lease (one that dies while holding an item leaves it to another after that) and their attempts
 * counted. In ordered lanes only each lane's first pending row is a candidate (found by a skip
 * scan: one index probe per lane, however many wait behind a head that fails), so nothing passes an
 * earlier row that is held or waiting to be tried again. Whatever follows a claim names the claim's
 * attempts, and matches nothing once the item was claimed again (its lease ran out) or finished.
 */
public final class QueueRepository {

    /** An item claimed: its id, its attempts with this claim (the claim's token), and what the table's view returned. */
    public record Claimed(long id, int attempts, Row row) {
    }

    /** How many items are owed, and how long the oldest of those due has been due. */
    public record Backlog(long pending, double oldestDueSeconds) {
    }

    private final Pool pool;
    private final QueueTable table;
    private final String claim;
    private final String done;
    private final String retry;
    private final String extend;
    private final String number;
    private final String backlog;

    public QueueRepository(Pool pool, QueueTable table) {
        this.pool = pool;
        this.table = table;
        String t = table.table() + " q";
        String owned = " WHERE q.id = $1 AND q." + table.attempts() + " = $2 AND (" + table.pending() + ")";
        this.claim = claimStatement(table);
        this.done = table.done() == null ? null : "UPDATE " + t + " SET " + table.done() + owned;
        this.retry = "UPDATE " + t + " SET " + table.due() + " = now() + $3 * interval '1 millisecond'"
                + (table.error() == null ? "" : ", " + table.error() + " = $4") + owned;
        this.extend = "UPDATE " + t + " SET " + table.due() + " = now() + $3 * interval '1 millisecond'" + owned;
        this.number = table.numbering() == null ? null : "WITH n AS MATERIALIZED (SELECT id, nextval('"
                + table.numbering().sequence() + "') AS seq FROM (SELECT q.id FROM " + t + " WHERE (" + table.pending()
                + ") AND q." + table.order() + " IS NULL ORDER BY q.id LIMIT 1000) u) UPDATE " + t + " SET "
                + table.order() + " = n.seq" + (table.numbering().assign().isEmpty() ? "" : ", " + table.numbering().assign())
                // Not a row another numbering numbered since this one read it: each row keeps its first number.
                + " FROM n WHERE q.id = n.id AND q." + table.order() + " IS NULL";
        this.backlog = "SELECT count(*) AS pending, coalesce(extract(epoch FROM now() - min(q." + table.due() + ") FILTER (WHERE q."
                + table.due() + " <= now())), 0)::float8 AS oldest FROM " + t + " WHERE " + table.inLane();
    }

    public QueueTable table() {
        return table;
    }

    /** Up to {@code limit} due items, each held for {@code lease}; in each ordered lane its first, if that is due. */
    public Uni<List<Claimed>> claim(int limit, Duration lease) {
        Uni<Void> numbered = number == null ? Uni.createFrom().voidItem() : number();
        return numbered.chain(() -> pool.preparedQuery(claim).execute(Tuple.of(limit, lease.toMillis()))).map(rows -> {
            List<Claimed> claimed = new ArrayList<>(rows.rowCount());
            for (Row row : rows) {
                claimed.add(new Claimed(row.getLong("queue_id"), row.getInteger("queue_attempts"), row));
            }
            return claimed;
        });
    }

    /**
     * Numbers the rows seen for the first time, in the order of their ids, after every number given
     * before: under a lock only one replica holds at a time (one that does not get it leaves the
     * numbering to the one that has it).
     */
    private Uni<Void> number() {
        return pool.withTransaction(conn -> conn.preparedQuery("SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS mine")
                .execute(Tuple.of(table.numbering().lockKey()))
                .chain(lock -> lock.iterator().next().getBoolean("mine") ? conn.query(number).execute().replaceWithVoid()
                        : Uni.createFrom().voidItem()));
    }

    /** Done, if this claim still holds the item. */
    public Uni<Boolean> done(Claimed item) {
        return done(pool, item);
    }

    /** Done inside the caller's transaction ({@code conn}), if this claim still holds the item. */
    public Uni<Boolean> done(SqlClient conn, Claimed item) {
        if (done == null) {
            throw new IllegalStateException("the queue " + table.name() + " records its items' ends itself");
        }
        return conn.preparedQuery(done).execute(Tuple.of(item.id(), item.attempts())).map(rows -> rows.rowCount() == 1);
    }

    /** Tried again after {@code wait}, with what went wrong kept (where the table keeps it); if this claim still holds it. */
    public Uni<Boolean> retry(Claimed item, String error, Duration wait) {
        Tuple args = Tuple.of(item.id(), item.attempts(), wait.toMillis());
        if (table.error() != null) {
            args.addValue(error);
        }
        return pool.preparedQuery(retry).execute(args).map(rows -> rows.rowCount() == 1);
    }

    /** Held {@code lease} longer from now (a long item's heartbeat); false when another claim has taken it over. */
    public Uni<Boolean> extend(Claimed item, Duration lease) {
        return pool.preparedQuery(extend).execute(Tuple.of(item.id(), item.attempts(), lease.toMillis()))
                .map(rows -> rows.rowCount() == 1);
    }

    /** Removes the finished rows older than {@code keep}; how many. Nothing where the table purges nothing. */
    public Uni<Integer> purge(Duration keep) {
        if (table.purgeable() == null) {
            return Uni.createFrom().item(0);
        }
        return pool.preparedQuery("DELETE FROM " + table.table() + " q WHERE "
                        + table.purgeable().replace("{cutoff}", "(now() - $1 * interval '1 millisecond')"))
                .execute(Tuple.of(keep.toMillis())).map(rows -> rows.rowCount());
    }

    public Uni<Backlog> backlog() {
        return pool.query(backlog).execute().map(rows -> {
            Row row = rows.iterator().next();
            return new Backlog(row.getLong("pending"), row.getDouble("oldest"));
        });
    }

    /**
     * The claim: the candidates (the due rows; in ordered lanes, the lanes' first rows that are due),
     * locked and leased, then the view of them. Parameters: $1 the most, $2 the lease in ms.
     */
    static String claimStatement(QueueTable table) {
        String t = table.table() + " q";
        String leased = "UPDATE " + t + " SET " + table.due() + " = now() + $2 * interval '1 millisecond', " + table.attempts()
                + " = q." + table.attempts() + " + 1" + (table.onClaim().isEmpty() ? "" : ", " + table.onClaim());
        String view = " SELECT c.id AS queue_id, c." + table.attempts() + " AS queue_attempts, " + table.view() + " ORDER BY c.id";
        if (!table.ordered()) {
            return "WITH claimed AS (" + leased + " WHERE q.id IN (SELECT q.id FROM " + t + " WHERE (" + table.pending()
                    + ") AND q." + table.due() + " <= now() AND (" + table.claimable() + ") ORDER BY q." + table.due()
                    + ", q.id LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING q.*)" + view;
        }
        List<String> lanes = table.lanes();
        String laneKey = lanes.stream().map(c -> "q." + c).collect(Collectors.joining(", "));
        String sortKey = (lanes.isEmpty() ? "" : laneKey + ", ") + "q." + table.order();
        String columns = "q.id" + (lanes.isEmpty() ? "" : ", " + laneKey) + (table.order().equals("id") ? "" : ", q." + table.order());
        String first = "(SELECT " + columns + " FROM " + t + " WHERE " + table.inLane() + " ORDER BY " + sortKey + " LIMIT 1)";
        // Each next lane: the first row past the last lane's key (a skip scan of the lanes' index).
        String heads = lanes.isEmpty() ? first : first + " UNION ALL SELECT n.* FROM heads h CROSS JOIN LATERAL (SELECT "
                + columns + " FROM " + t + " WHERE " + table.inLane() + " AND (" + laneKey + ") > ("
                + lanes.stream().map(c -> "h." + c).collect(Collectors.joining(", ")) + ") ORDER BY " + sortKey + " LIMIT 1) n";
        return "WITH RECURSIVE heads AS (" + heads + "), candidates AS (SELECT q.id FROM " + t + " JOIN heads h ON h.id = q.id WHERE "
                + table.inLane() + " AND q." + table.due() + " <= now() AND (" + table.claimable() + ") ORDER BY q."
                + table.due() + " LIMIT $1 FOR UPDATE OF q SKIP LOCKED), claimed AS (" + leased
                + " FROM candidates WHERE q.id = candidates.id RETURNING q.*)" + view;
    }
}
