package org.ziggurat.platform.rest.sql;

import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.pgclient.PgPool;
import io.vertx.sqlclient.PrepareOptions;
import io.vertx.sqlclient.PreparedQuery;
import io.vertx.sqlclient.Query;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.TransactionPropagation;
import io.vertx.sqlclient.TransactionRollbackException;
import org.jboss.logging.Logger;

import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The services' pool: what failed without an effect on the database is sent again, at most
 * {@link #RETRY_DELAYS_MS} times, after those pauses: a statement that never reached PostgreSQL
 * ({@link NeverSent#test}), a read whose connection went, and a transaction whose connection went
 * before its COMMIT was sent. Through PgBouncer in transaction mode, a pooled connection is closed under its
 * client, or its statement refused, right after a server login failed: the first statements
 * after PostgreSQL came back (a restart, a failover, a moment without free connections) failed
 * although the database was there again, and the request answered 503. Repeating them is safe:
 * nothing of them had an effect. A transaction is repeated whole (a failure at COMMIT that may
 * have reached the server is not repeated, nor a write outside a transaction whose answer was
 * lost). Statements on a connection the caller holds ({@code getConnection},
 * {@code withConnection}) are the caller's: only taking the connection is repeated.
 */
public final class RetryingPgPool implements PgPool {

    /**
     * Pauses before each new try, 1.5 s in all. PgBouncer refuses the first client after a failed
     * server login, and starts a new server connection only for a client that comes
     * server_login_retry (1 s in deploy) after that failure: the fourth try (at 1.2 s) is one, and
     * the fifth finds the connection. Short enough that a refusal while the database is really
     * away stays quick (with PgBouncer's own 3 s query_wait_timeout, under 5 s).
     */
    static final long[] RETRY_DELAYS_MS = {100, 400, 700, 300};

    private static final Logger LOG = Logger.getLogger(RetryingPgPool.class);

    private final PgPool pool;
    private final Vertx vertx;

    public RetryingPgPool(PgPool pool, Vertx vertx) {
        this.pool = pool;
        this.vertx = vertx;
    }

    /**
     * {@code attempt}, made again while it fails in a way {@code repeatable} accepts; answered on
     * the caller's context.
     */
    <T> Future<T> retried(Supplier<Future<T>> attempt, Predicate<Throwable> repeatable) {
        ContextInternal caller = (ContextInternal) vertx.getOrCreateContext();
        Promise<T> answer = caller.promise();
        attempt(attempt, repeatable, 0, answer, caller);
        return answer.future();
    }

    private <T> void attempt(Supplier<Future<T>> attempt, Predicate<Throwable> repeatable, int retry, Promise<T> answer,
            Context caller) {
        Future<T> tried;
        try {
            tried = attempt.get();
        } catch (RuntimeException e) {
            answer.fail(e);
            return;
        }
        tried.onComplete(result -> {
            if (result.succeeded()) {
                answer.complete(result.result());
            } else if (retry < RETRY_DELAYS_MS.length && repeatable.test(result.cause())) {
                LOG.infof("A statement that failed without an effect on the database is sent again in %d ms (%s)",
                        RETRY_DELAYS_MS[retry], result.cause().getMessage());
                caller.runOnContext(v -> vertx.setTimer(RETRY_DELAYS_MS[retry],
                        id -> attempt(attempt, repeatable, retry + 1, answer, caller)));
            } else {
                answer.fail(result.cause() instanceof BeforeCommit before ? before.getCause() : result.cause());
            }
        });
    }

    @Override
    public void getConnection(Handler<AsyncResult<SqlConnection>> handler) {
        getConnection().onComplete(handler);
    }

    @Override
    public Future<SqlConnection> getConnection() {
        return retried(pool::getConnection, NeverSent::test);
    }

    @Override
    public Query<RowSet<Row>> query(String sql) {
        return new RetriedQuery<>(this, pool.query(sql), repeatable(sql));
    }

    @Override
    public PreparedQuery<RowSet<Row>> preparedQuery(String sql) {
        return new RetriedPreparedQuery<>(this, pool.preparedQuery(sql), repeatable(sql));
    }

    @Override
    public PreparedQuery<RowSet<Row>> preparedQuery(String sql, PrepareOptions options) {
        return new RetriedPreparedQuery<>(this, pool.preparedQuery(sql, options), repeatable(sql));
    }

    /**
     * A read is sent again whenever its connection went; a write only when it never reached the
     * server. Whether the statement only reads is asked on a failure only, not on every execution.
     */
    private static Predicate<Throwable> repeatable(String sql) {
        return failure -> NeverSent.test(failure) || NeverSent.connectionLost(failure) && NeverSent.isRead(sql);
    }

    /**
     * A transaction's failure before its COMMIT was sent: nothing of it was committed, so when
     * its connection went (whatever the statement it was sending) the whole of it may run again.
     */
    private static final class BeforeCommit extends RuntimeException {
        BeforeCommit(Throwable cause) {
            super(cause.getMessage(), cause, false, false);
        }
    }

    private static boolean repeatableTransaction(Throwable failure) {
        return failure instanceof BeforeCommit before ? NeverSent.connectionLost(before.getCause()) : NeverSent.test(failure);
    }

    /**
     * Vert.x's own {@code Pool.withTransaction}, on a connection of this pool, telling apart a
     * failure before COMMIT was sent ({@link BeforeCommit}) from one at or after it.
     */
    private <T> Future<T> transaction(Function<SqlConnection, Future<T>> function) {
        boolean[] committing = {false};
        return pool.getConnection().flatMap(conn -> conn.begin().flatMap(tx -> function.apply(conn).compose(
                result -> {
                    committing[0] = true;
                    return tx.commit().flatMap(v -> Future.succeededFuture(result));
                },
                failure -> failure instanceof TransactionRollbackException ? Future.failedFuture(failure)
                        : tx.rollback().compose(v -> Future.failedFuture(failure), ignored -> Future.failedFuture(failure))))
                .onComplete(ar -> conn.close()))
                .recover(failure -> Future.failedFuture(committing[0] ? failure : new BeforeCommit(failure)));
    }

    @Override
    public <T> void withTransaction(Function<SqlConnection, Future<T>> function, Handler<AsyncResult<T>> handler) {
        withTransaction(function).onComplete(handler);
    }

    @Override
    public <T> Future<T> withTransaction(Function<SqlConnection, Future<T>> function) {
        return retried(() -> transaction(function), RetryingPgPool::repeatableTransaction);
    }

    @Override
    public <T> void withTransaction(TransactionPropagation propagation, Function<SqlConnection, Future<T>> function,
            Handler<AsyncResult<T>> handler) {
        withTransaction(propagation, function).onComplete(handler);
    }

    /** Propagation through the Vert.x context is not used by the services: only taking the connection is repeated there. */
    @Override
    public <T> Future<T> withTransaction(TransactionPropagation propagation, Function<SqlConnection, Future<T>> function) {
        return pool.withTransaction(propagation, function);
    }

    @Override
    public void close(Handler<AsyncResult<Void>> handler) {
        pool.close(handler);
    }

    @Override
    public Future<Void> close() {
        return pool.close();
    }

    @Override
    public PgPool connectHandler(Handler<SqlConnection> handler) {
        pool.connectHandler(handler);
        return this;
    }

    @Override
    public PgPool connectionProvider(Function<Context, Future<SqlConnection>> provider) {
        pool.connectionProvider(provider);
        return this;
    }

    @Override
    public int size() {
        return pool.size();
    }
}
