package org.ziggurat.auth.throughput;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Group commit against the real database: executions that wait together are one batch, answered
 * each with its own rows, in arrival order; a group the database refuses commits nothing, and its
 * executions are retried alone.
 */
@QuarkusTest
class GroupCommitTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    Pool pool;

    @Inject
    Vertx vertx;

    @BeforeEach
    void probeTable() {
        pool.query("DROP TABLE IF EXISTS group_commit_probe").execute().await().atMost(WAIT);
        pool.query("CREATE TABLE group_commit_probe (id int PRIMARY KEY, used boolean NOT NULL DEFAULT false)")
                .execute().await().atMost(WAIT);
    }

    @Test
    void thoseWhoWaitGoTogetherAndEachGetsItsOwnRows() throws Exception {
        GroupCommit inserts = new GroupCommit(pool, "INSERT INTO group_commit_probe (id) VALUES ($1) RETURNING id", 1, 64);
        List<CompletableFuture<RowSet<Row>>> answers = submitInOneTick(inserts, ids(1, 40));
        for (int i = 0; i < answers.size(); i++) {
            RowSet<Row> rows = answers.get(i).get(10, TimeUnit.SECONDS);
            assertEquals(1, rows.rowCount());
            assertEquals(i + 1, rows.iterator().next().getInteger("id"));
        }
        // The first went alone; the 39 that arrived while it was committed went as one group.
        assertEquals(1, inserts.groupsSent());
        assertEquals(40L, count("SELECT count(*) FROM group_commit_probe"));
    }

    @Test
    void aGroupRunsInArrivalOrderEachStatementSeeingTheOnesBefore() throws Exception {
        pool.query("INSERT INTO group_commit_probe (id) VALUES (7)").execute().await().atMost(WAIT);
        GroupCommit use = new GroupCommit(pool,
                "UPDATE group_commit_probe SET used = true WHERE id = $1 AND NOT used RETURNING id", 1, 64);
        // Like one refresh token presented twice at once: exactly the first one uses it.
        List<CompletableFuture<RowSet<Row>>> answers = submitInOneTick(use, List.of(1000, 7, 7));
        assertEquals(0, answers.get(0).get(10, TimeUnit.SECONDS).rowCount());
        assertEquals(1, answers.get(1).get(10, TimeUnit.SECONDS).rowCount());
        assertEquals(0, answers.get(2).get(10, TimeUnit.SECONDS).rowCount());
        assertEquals(1, use.groupsSent());
    }

    @Test
    void aRefusedGroupCommitsNothingAndOnlyTheFaultyExecutionFails() throws Exception {
        pool.query("INSERT INTO group_commit_probe (id) VALUES (5)").execute().await().atMost(WAIT);
        GroupCommit inserts = new GroupCommit(pool, "INSERT INTO group_commit_probe (id) VALUES ($1) RETURNING id", 1, 64);
        // 100 goes alone; 6, 5 and 7 wait together, and 5 breaks the primary key.
        List<CompletableFuture<RowSet<Row>>> answers = submitInOneTick(inserts, List.of(100, 6, 5, 7));
        assertEquals(1, answers.get(0).get(10, TimeUnit.SECONDS).rowCount());
        assertEquals(1, answers.get(1).get(10, TimeUnit.SECONDS).rowCount());
        ExecutionException refused = assertThrows(ExecutionException.class, () -> answers.get(2).get(10, TimeUnit.SECONDS));
        assertInstanceOf(PgException.class, refused.getCause());
        assertEquals("23505", ((PgException) refused.getCause()).getSqlState());
        assertEquals(1, answers.get(3).get(10, TimeUnit.SECONDS).rowCount());
        assertEquals(1, inserts.groupsSent());
        // Had the group's 6 been committed before 5 failed, its retry would have failed as a duplicate.
        assertEquals(4L, count("SELECT count(*) FROM group_commit_probe"));
    }

    @Test
    void eachCallerIsAnsweredOnItsOwnRequestsContext() throws Exception {
        GroupCommit inserts = new GroupCommit(pool, "INSERT INTO group_commit_probe (id) VALUES ($1) RETURNING id", 1, 64);
        List<CompletableFuture<Boolean>> onOwnContext = new ArrayList<>();
        ContextInternal loop = (ContextInternal) vertx.getOrCreateContext();
        CompletableFuture<Void> submitted = new CompletableFuture<>();
        loop.runOnContext(ignored -> {
            for (int i = 1; i <= 10; i++) {
                // Each like a request of its own: a duplicated context of the same event loop.
                ContextInternal request = loop.duplicate();
                CompletableFuture<Boolean> answer = new CompletableFuture<>();
                onOwnContext.add(answer);
                Tuple parameters = Tuple.of(i);
                request.emit(null, v -> inserts.execute(parameters).subscribe()
                        .with(rows -> answer.complete(Vertx.currentContext() == request), answer::completeExceptionally));
            }
            submitted.complete(null);
        });
        submitted.get(10, TimeUnit.SECONDS);
        for (CompletableFuture<Boolean> answer : onOwnContext) {
            assertTrue(answer.get(10, TimeUnit.SECONDS), "answered on its own request's context");
        }
        assertEquals(1, inserts.groupsSent());
    }

    @Test
    void outsideAnEventLoopEachExecutionGoesAlone() {
        GroupCommit inserts = new GroupCommit(pool, "INSERT INTO group_commit_probe (id) VALUES ($1) RETURNING id", 1, 64);
        assertEquals(1, inserts.execute(Tuple.of(1)).await().atMost(WAIT).rowCount());
        assertEquals(0, inserts.groupsSent());
    }

    /** Submits every execution from one event-loop task, so all but the first find the lane busy. */
    private List<CompletableFuture<RowSet<Row>>> submitInOneTick(GroupCommit commit, List<Integer> parameters)
            throws Exception {
        List<CompletableFuture<RowSet<Row>>> answers = new ArrayList<>();
        parameters.forEach(p -> answers.add(new CompletableFuture<>()));
        CompletableFuture<Void> submitted = new CompletableFuture<>();
        vertx.getOrCreateContext().runOnContext(ignored -> {
            for (int i = 0; i < parameters.size(); i++) {
                CompletableFuture<RowSet<Row>> answer = answers.get(i);
                commit.execute(Tuple.of(parameters.get(i))).subscribe().with(answer::complete, answer::completeExceptionally);
            }
            submitted.complete(null);
        });
        submitted.get(10, TimeUnit.SECONDS);
        return answers;
    }

    private static List<Integer> ids(int from, int to) {
        List<Integer> ids = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            ids.add(i);
        }
        return ids;
    }

    private long count(String sql) {
        return pool.query(sql).execute().await().atMost(WAIT).iterator().next().getLong(0);
    }
}
