package org.ziggurat.platform.rest.queue;

import java.util.List;
import java.util.Objects;

/**
 * Where a queue's items are: a table of its user's own, whose rows are the items, and the SQL that
 * says which of them are still owed. Every fragment names the table's row {@code q}; they are the
 * user's constants, never input.
 *
 * <p>The queue's own columns: {@code id} (bigint), a due time ({@link #due}: when the item may be
 * claimed; a claim moves it past a lease, a failure past a backoff), the claims so far
 * ({@link #attempts}, which also tells a holder whether its claim is still the latest), and
 * optionally the last error.
 *
 * @param name      the queue's name, unique in the platform: its metrics, its log lines, its wake-up channel
 * @param table     the table
 * @param pending   which rows are still owed (done or given-up rows are not)
 * @param due       the due-time column
 * @param attempts  the claims column
 * @param error     the last error's column, or null
 * @param lanes     the columns whose values make a lane: in each, only the first pending row (by {@link #order})
 *                  is ever handed out, so a lane's items are handled one after another, in order, a failed one
 *                  before every later one. Null: no order at all; empty: one lane for the whole queue
 * @param order     the order within a lane (a column)
 * @param numbering null, or how rows get their {@link #order} from the queue, as it first sees them
 * @param claimable what else a claimed row needs (its subscription active, say); "true" when nothing
 * @param onClaim   what else a claim sets ({@code "started_at = now()"}), or empty
 * @param done      what makes a row done (its {@link #pending} false), or null when the user records that itself
 * @param purgeable which finished rows a purge removes, {@code {cutoff}} standing for the oldest kept time; or null
 * @param view      what a claim returns: a select list and the FROM of the claimed rows, which are {@code claimed c}
 */
public record QueueTable(String name, String table, String pending, String due, String attempts, String error,
        List<String> lanes, String order, Numbering numbering, String claimable, String onClaim, String done,
        String purgeable, String view) {

    /**
     * Orders given as the queue first sees a row (after its transaction committed), not as rows
     * were written: a row that commits after a later one was handled comes after it.
     *
     * @param sequence where the numbers come from
     * @param lockKey  held (a transaction-level advisory lock) while numbering, so numbers follow one another
     * @param assign   what else numbering sets, {@code n.seq} being the number; or empty
     */
    public record Numbering(String sequence, String lockKey, String assign) {
    }

    public QueueTable {
        Objects.requireNonNull(name);
        if (!name.matches("[a-z][a-z0-9_]*")) {
            throw new IllegalArgumentException("a queue's name is a plain lower-case identifier: " + name);
        }
        Objects.requireNonNull(table);
        Objects.requireNonNull(pending);
        if (numbering != null && lanes == null) {
            throw new IllegalArgumentException("numbering orders lanes: the queue " + name + " has none");
        }
    }

    /** A queue of {@code table}'s rows for which {@code pending} holds; in no order, with the usual columns unless told. */
    public static Builder of(String name, String table, String pending) {
        return new Builder(name, table, pending);
    }

    /** The channel that wakes the queue's workers: a trigger notifies it in the transaction that enqueues. */
    public String channel() {
        return "queue_" + name;
    }

    public boolean ordered() {
        return lanes != null;
    }

    /** The rows that stand in their lane: pending, and numbered where the queue numbers them. */
    String inLane() {
        return "(" + pending + ")" + (numbering == null ? "" : " AND q." + order + " IS NOT NULL");
    }

    /** A queue table told piece by piece; what is not told is the usual. */
    public static final class Builder {
        private final String name;
        private final String table;
        private final String pending;
        private String due = "next_attempt_at";
        private String attempts = "attempts";
        private String error = "last_error";
        private List<String> lanes;
        private String order = "id";
        private Numbering numbering;
        private String claimable = "true";
        private String onClaim = "";
        private String done;
        private String purgeable;
        private String view = "c.* FROM claimed c";

        private Builder(String name, String table, String pending) {
            this.name = name;
            this.table = table;
            this.pending = pending;
        }

        public Builder due(String column) { due = column; return this; }

        public Builder attempts(String column) { attempts = column; return this; }

        public Builder error(String column) { error = column; return this; }

        /** Ordered lanes of these columns (none: one lane for the queue), in the order of {@code orderColumn}. */
        public Builder lanes(List<String> columns, String orderColumn) { lanes = List.copyOf(columns); order = orderColumn; return this; }

        public Builder numbering(Numbering how) { numbering = how; return this; }

        public Builder claimable(String condition) { claimable = condition; return this; }

        public Builder onClaim(String assignments) { onClaim = assignments; return this; }

        public Builder done(String assignments) { done = assignments; return this; }

        public Builder purgeable(String condition) { purgeable = condition; return this; }

        public Builder view(String selectFrom) { view = selectFrom; return this; }

        public QueueTable build() {
            return new QueueTable(name, table, pending, due, attempts, error, lanes, order, numbering, claimable, onClaim, done,
                    purgeable, view);
        }
    }
}
