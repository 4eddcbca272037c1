package org.ziggurat.platform.rest.sql;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.sqlclient.Query;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlResult;

import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collector;

/** A query without parameters, sent again as the pool's statements are. */
class RetriedQuery<T> implements Query<T> {

    final RetryingPgPool pool;
    private final Query<T> query;
    final Predicate<Throwable> repeatable;

    RetriedQuery(RetryingPgPool pool, Query<T> query, Predicate<Throwable> repeatable) {
        this.pool = pool;
        this.query = query;
        this.repeatable = repeatable;
    }

    @Override
    public void execute(Handler<AsyncResult<T>> handler) {
        execute().onComplete(handler);
    }

    @Override
    public Future<T> execute() {
        return pool.retried(query::execute, repeatable);
    }

    @Override
    public <R> Query<SqlResult<R>> collecting(Collector<Row, ?, R> collector) {
        return new RetriedQuery<>(pool, query.collecting(collector), repeatable);
    }

    @Override
    public <U> Query<RowSet<U>> mapping(Function<Row, U> mapper) {
        return new RetriedQuery<>(pool, query.mapping(mapper), repeatable);
    }
}
