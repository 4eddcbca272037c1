package org.ziggurat.auth;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Who makes a change, for the audit stream: the triggers that write the audit outbox (V25, V30)
 * read the transaction's setting {@code ziggurat.actor_id}, which a repository sets first in the
 * transaction of the change, for that transaction only (a pooled connection, or PgBouncer's next
 * client, never carries it on).
 */
public final class AuditActor {

    private AuditActor() {
    }

    /**
     * Names {@code actor} in the transaction {@code conn} is in: a person's id, or null for what
     * the platform does by itself (its configured clients at start).
     */
    public static Uni<Void> name(SqlClient conn, Long actor) {
        return conn.preparedQuery("SELECT set_config('ziggurat.actor_id', $1, true)")
                .execute(Tuple.of(actor == null ? "" : Long.toString(actor))).replaceWithVoid();
    }
}
