package org.ziggurat.auth.throughput;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Group commit of one statement. Executions that arrive on one event loop while that loop's
 * earlier groups are still being committed wait, and then go to the database together: one
 * batch of the prepared statement (one Bind and Execute per execution) ended by one Sync, which
 * PostgreSQL runs as one implicit transaction, so the group costs one round trip and one commit.
 * Each caller is answered only after the commit that holds its write, so a 2xx is as durable
 * as with a commit of its own; at low load a group is a single execution and nothing waits.
 *
 * <p>The statements run in arrival order, each seeing the ones before it, exactly as they would
 * one after the other. When the database refuses a group (a constraint, a deadlock), nothing of
 * it was committed, and each execution is retried alone so that only its own caller sees its
 * error. A lost connection is not retried: whether the commit happened is then unknown, and a
 * retry could apply a write twice.
 *
 * <p>The lanes (one per event loop) are touched only by their own thread: callers arrive there,
 * and the pool answers on the context that called it. Each caller is answered on its own
 * request's context, not on the context of the request whose arrival sent the group: what a
 * request keeps in its context (its log fields, its request id) stays its own.
 */
public final class GroupCommit {

    private final Pool pool;
    private final String sql;
    private final int maxInFlight;
    private final int maxGroup;
    private final ThreadLocal<Lane> lanes = ThreadLocal.withInitial(Lane::new);
    private final LongAdder groups = new LongAdder();

    public GroupCommit(Pool pool, String sql, int maxInFlight, int maxGroup) {
        this.pool = pool;
        this.sql = sql;
        this.maxInFlight = maxInFlight;
        this.maxGroup = maxGroup;
    }

    /** How many groups (batches of two or more executions) were sent. */
    public long groupsSent() {
        return groups.sum();
    }

    /** The rows that this execution of the statement returned, once they are committed. */
    public Uni<RowSet<Row>> execute(Tuple parameters) {
        Context context = Vertx.currentContext();
        if (context == null || !context.isEventLoopContext() || !Context.isOnEventLoopThread()) {
            return pool.preparedQuery(sql).execute(parameters);
        }
        ContextInternal caller = (ContextInternal) context;
        return Uni.createFrom().emitter(emitter -> lanes.get().add(new Waiting(parameters, emitter, caller)));
    }

    private record Waiting(Tuple parameters, UniEmitter<? super RowSet<Row>> emitter, ContextInternal context) {

        /** On this thread (every execution of a lane is on its event loop), with the caller's context current. */
        void complete(RowSet<Row> rows) {
            context.emit(rows, emitter::complete);
        }

        void fail(Throwable failure) {
            context.emit(failure, emitter::fail);
        }
    }

    private final class Lane {
        private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
        private final Thread owner = Thread.currentThread();
        private final ContextInternal context = ((ContextInternal) Vertx.currentContext()).unwrap();
        private int inFlight;

        void add(Waiting execution) {
            waiting.add(execution);
            sendIfFree();
        }

        private void sendIfFree() {
            while (!waiting.isEmpty() && inFlight < maxInFlight) {
                List<Waiting> group = new ArrayList<>(Math.min(waiting.size(), maxGroup));
                while (!waiting.isEmpty() && group.size() < maxGroup) {
                    group.add(waiting.poll());
                }
                inFlight++;
                send(group);
            }
        }

        private void send(List<Waiting> group) {
            if (group.size() == 1) {
                Waiting only = group.get(0);
                pool.preparedQuery(sql).execute(only.parameters()).subscribe().with(
                        rows -> onOwner(() -> done(() -> only.complete(rows))),
                        failure -> onOwner(() -> done(() -> only.fail(failure))));
                return;
            }
            groups.increment();
            List<Tuple> batch = new ArrayList<>(group.size());
            group.forEach(execution -> batch.add(execution.parameters()));
            pool.preparedQuery(sql).executeBatch(batch).subscribe().with(
                    first -> onOwner(() -> done(() -> answer(group, first))),
                    failure -> onOwner(() -> done(() -> {
                        if (failure instanceof PgException) {
                            group.forEach(this::alone);
                        } else {
                            group.forEach(execution -> execution.fail(failure));
                        }
                    })));
        }

        /** A batch's results come as a chain: one row set per execution, in order. */
        private void answer(List<Waiting> group, RowSet<Row> first) {
            RowSet<Row> rows = first;
            for (Waiting execution : group) {
                execution.complete(rows);
                rows = rows.next();
            }
        }

        /** Retried alone after its group was refused; outside the lane's limit, as it is rare. */
        private void alone(Waiting execution) {
            pool.preparedQuery(sql).execute(execution.parameters()).subscribe()
                    .with(rows -> onOwner(() -> execution.complete(rows)), failure -> onOwner(() -> execution.fail(failure)));
        }

        /** The next group goes to the database before this one's callers are answered. */
        private void done(Runnable answer) {
            inFlight--;
            sendIfFree();
            answer.run();
        }

        private void onOwner(Runnable action) {
            if (Thread.currentThread() == owner) {
                action.run();
            } else {
                context.runOnContext(ignored -> action.run());
            }
        }
    }
}
