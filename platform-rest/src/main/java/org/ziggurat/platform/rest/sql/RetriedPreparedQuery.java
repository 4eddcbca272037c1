package org.ziggurat.platform.rest.sql;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.sqlclient.PreparedQuery;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlResult;
import io.vertx.sqlclient.Tuple;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collector;

/** A prepared statement (one execution or a batch), sent again as the pool's statements are. */
final class RetriedPreparedQuery<T> extends RetriedQuery<T> implements PreparedQuery<T> {

    private final PreparedQuery<T> prepared;

    RetriedPreparedQuery(RetryingPgPool pool, PreparedQuery<T> prepared, Predicate<Throwable> repeatable) {
        super(pool, prepared, repeatable);
        this.prepared = prepared;
    }

    @Override
    public void execute(Tuple tuple, Handler<AsyncResult<T>> handler) {
        execute(tuple).onComplete(handler);
    }

    @Override
    public Future<T> execute(Tuple tuple) {
        return pool.retried(() -> prepared.execute(tuple), repeatable);
    }

    @Override
    public void executeBatch(List<Tuple> batch, Handler<AsyncResult<T>> handler) {
        executeBatch(batch).onComplete(handler);
    }

    @Override
    public Future<T> executeBatch(List<Tuple> batch) {
        return pool.retried(() -> prepared.executeBatch(batch), repeatable);
    }

    @Override
    public <R> PreparedQuery<SqlResult<R>> collecting(Collector<Row, ?, R> collector) {
        return new RetriedPreparedQuery<>(pool, prepared.collecting(collector), repeatable);
    }

    @Override
    public <U> PreparedQuery<RowSet<U>> mapping(Function<Row, U> mapper) {
        return new RetriedPreparedQuery<>(pool, prepared.mapping(mapper), repeatable);
    }
}
