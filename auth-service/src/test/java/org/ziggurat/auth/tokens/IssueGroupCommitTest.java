package org.ziggurat.auth.tokens;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport;
import org.ziggurat.auth.OAuthTestSupport.App;
import org.ziggurat.auth.clients.ApplicationRepository;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.granttypes.TokenGrants;
import org.ziggurat.auth.oauth.IssuedTokens;
import org.ziggurat.auth.oauth.OAuthForm;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Token issues outside a transaction share commits (TokenRepository's group commits): concurrent
 * client_credentials grants on one event loop go to the database in groups, each answered with its
 * own token, stored and live; a refused issue fails only its own caller; a grouped issue stores
 * all it would alone (its key binding, its status list entry, its refresh token's bounds).
 */
@QuarkusTest
class IssueGroupCommitTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Inject
    TokenGrants grants;

    @Inject
    ApplicationRepository applications;

    @Inject
    TokenRepository tokens;

    @Inject
    TokenCrypto crypto;

    @Inject
    StatusIndices statusIndices;

    @Inject
    Pool pool;

    @Inject
    Vertx vertx;

    @Test
    void concurrentClientCredentialsGrantsOnOneEventLoopGoAsAGroupAndEachTokenIsStoredAndLive() throws Exception {
        App app = OAuthTestSupport.createApp(true, "public write");
        // Kept in this replica's memory, the client is authenticated without a read, so each grant
        // reaches its INSERT within the task that started it: the grouping below is not a race.
        assertNotNull(applications.byClientId(app.clientId()).await().atMost(WAIT));
        assertNotNull(applications.kept(app.clientId()));
        String basic = "Basic " + Base64.getEncoder().encodeToString((form(app.clientId()) + ":" + form(app.secret()))
                .getBytes(StandardCharsets.UTF_8));
        long before = tokens.issueGroupsSent();

        List<CompletableFuture<IssuedTokens>> answers = inOneTask(20, i -> grants.issue(
                OAuthForm.parse("application/x-www-form-urlencoded", "grant_type=client_credentials&scope=write"),
                basic, null, "127.0.0.1"));

        List<IssuedTokens> issued = new ArrayList<>();
        for (CompletableFuture<IssuedTokens> answer : answers) {
            issued.add(answer.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        }
        // The first two (issue-commits-in-flight) went alone; the 18 that came while they were being
        // committed went together.
        assertEquals(1, tokens.issueGroupsSent() - before);
        Set<Long> ids = new HashSet<>();
        for (IssuedTokens grant : issued) {
            ids.add(grant.accessTokenId());
            Row row = tokenRow(grant.accessTokenId());
            assertEquals("a", row.getString("kind"));
            assertArrayEquals(crypto.hash(grant.accessToken()), row.getBuffer("hash").getBytes(), "each caller got its own row's id");
            assertEquals(app.id(), row.getLong("application_id"));
            OAuthTestSupport.introspect(grant.accessToken()).statusCode(200).body("active", equalTo(true))
                    .body("client_id", equalTo(app.clientId())).body("scope", equalTo("write"));
        }
        assertEquals(20, ids.size());
    }

    @Test
    void anIssueTheDatabaseRefusesFailsOnlyItsOwnCaller() throws Exception {
        App app = OAuthTestSupport.createApp(true, "public write");
        TokenRepository.Issue taken = issue(app.id(), null, TokenBounds.NONE, null);
        // Off the event loop: alone.
        tokens.issue(taken).await().atMost(WAIT);
        List<TokenRepository.Issue> issues = List.of(issue(app.id(), null, TokenBounds.NONE, null),
                issue(app.id(), null, TokenBounds.NONE, null), sameHash(taken, app.id()),
                issue(app.id(), null, TokenBounds.NONE, null), issue(app.id(), null, TokenBounds.NONE, null));
        long before = tokens.issueGroupsSent();

        List<CompletableFuture<Long>> answers = inOneTask(issues.size(), i -> tokens.issue(issues.get(i)));

        // 0 and 1 went alone; 2, 3 and 4 as a group, refused for 2's hash (the unique index), and
        // then each alone: only 2's caller sees the refusal.
        for (int i : new int[] {0, 1, 3, 4}) {
            long id = answers.get(i).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertArrayEquals(issues.get(i).accessHash(), tokenRow(id).getBuffer("hash").getBytes());
        }
        ExecutionException refused = assertThrows(ExecutionException.class,
                () -> answers.get(2).get(WAIT.toSeconds(), TimeUnit.SECONDS));
        assertInstanceOf(PgException.class, refused.getCause());
        assertEquals("23505", ((PgException) refused.getCause()).getSqlState());
        assertEquals(1, tokens.issueGroupsSent() - before);
        assertEquals(5L, pool.preparedQuery("SELECT count(*) FROM token WHERE application_id = $1").execute(Tuple.of(app.id()))
                .await().atMost(WAIT).iterator().next().getLong(0));
    }

    @Test
    void aGroupedIssueStoresItsKeyBindingStatusEntryAndRefreshTokenAsItWouldAlone() throws Exception {
        App app = OAuthTestSupport.createApp(true, "public write");
        StatusIndex status = statusIndices.next().await().atMost(WAIT);
        TokenBounds bound = TokenBounds.of(List.of("https://rs.example.org"), null, "thumbprint-of-a-key", false);
        TokenBounds refreshBound = TokenBounds.of(List.of("https://rs.example.org"), List.of("https://rs.example.org",
                "https://other.example.org"), "thumbprint-of-a-public-client", true);
        List<TokenRepository.Issue> issues = List.of(issue(app.id(), null, TokenBounds.NONE, null),
                issue(app.id(), null, TokenBounds.NONE, null), issue(app.id(), null, bound, status),
                issue(app.id(), null, TokenBounds.NONE, null),
                issue(app.id(), "refresh-0", TokenBounds.NONE, null), issue(app.id(), "refresh-1", TokenBounds.NONE, null),
                issue(app.id(), "refresh-2", refreshBound, null), issue(app.id(), "refresh-3", bound, null));
        long before = tokens.issueGroupsSent();

        List<CompletableFuture<Long>> answers = inOneTask(issues.size(), i -> tokens.issue(issues.get(i)));
        List<Long> ids = new ArrayList<>();
        for (CompletableFuture<Long> answer : answers) {
            ids.add(answer.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        }

        // Each statement's third and fourth went as a group of their own.
        assertEquals(2, tokens.issueGroupsSent() - before);
        for (int i = 0; i < issues.size(); i++) {
            assertArrayEquals(issues.get(i).accessHash(), tokenRow(ids.get(i)).getBuffer("hash").getBytes());
        }
        Row jwtLike = tokenRow(ids.get(2));
        assertEquals("thumbprint-of-a-key", jwtLike.getString("jkt"));
        assertEquals(status.list(), jwtLike.getInteger("status_list"));
        assertEquals(status.idx(), jwtLike.getInteger("status_idx"));
        assertEquals(List.of("https://rs.example.org"), Arrays.asList(jwtLike.getArrayOfStrings("audience")));

        Row publicClients = refreshRow(issues.get(6));
        assertEquals("thumbprint-of-a-public-client", publicClients.getString("jkt"), "a public client's refresh token is bound");
        assertEquals(List.of("https://rs.example.org", "https://other.example.org"),
                Arrays.asList(publicClients.getArrayOfStrings("audience")));
        assertEquals("thumbprint-of-a-public-client", tokenRow(ids.get(6)).getString("jkt"));
        Row confidentials = refreshRow(issues.get(7));
        assertNull(confidentials.getString("jkt"), "a confidential client's refresh token is not bound");
        assertEquals("thumbprint-of-a-key", tokenRow(ids.get(7)).getString("jkt"));
        // The refresh token ends with its authorization when that ends first.
        assertEquals(issues.get(7).authorizationExpires().toInstant(),
                refreshRow(issues.get(7)).getOffsetDateTime("expires_at").toInstant());
        // The refresh token keeps the grant's scopes.
        assertEquals(List.of("write", "public"), Arrays.asList(refreshRow(issues.get(6)).getArrayOfStrings("scopes")));
    }

    /** An issue of this application's: a new access token and, when named, a refresh token. */
    private TokenRepository.Issue issue(long applicationId, String refresh, TokenBounds bounds, StatusIndex status) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS);
        return new TokenRepository.Issue(crypto.hash(crypto.newAccessToken()), crypto.encrypt("sealed"),
                refresh == null ? null : crypto.hash(refresh + UUID.randomUUID()), applicationId,
                refresh == null ? null : OAuthTestSupport.OWNER_ID, refresh == null ? null : "owner", List.of("write"),
                UUID.randomUUID(), now.plusMinutes(10), now.plusDays(60), null, now.plusDays(30), null, null, bounds,
                List.of("write", "public"), status);
    }

    private TokenRepository.Issue sameHash(TokenRepository.Issue taken, long applicationId) {
        TokenRepository.Issue fresh = issue(applicationId, null, TokenBounds.NONE, null);
        return new TokenRepository.Issue(taken.accessHash(), fresh.accessSealed(), null, applicationId, null, null,
                fresh.scopes(), fresh.family(), fresh.accessExpires(), null, null, fresh.authorizationExpires(), null, null,
                fresh.bounds(), fresh.refreshScopes(), null);
    }

    private Row tokenRow(long id) {
        return pool.preparedQuery("SELECT * FROM token WHERE id = $1").execute(Tuple.of(id)).await().atMost(WAIT)
                .iterator().next();
    }

    private Row refreshRow(TokenRepository.Issue issue) {
        return pool.preparedQuery("SELECT * FROM token WHERE hash = $1 AND kind = 'r'")
                .execute(Tuple.of(io.vertx.core.buffer.Buffer.buffer(issue.refreshHash()))).await().atMost(WAIT)
                .iterator().next();
    }

    /**
     * Starts every call from one event-loop task, each on a context of its own as a request would be,
     * so that all but the first of each statement find its group commit busy.
     */
    private <T> List<CompletableFuture<T>> inOneTask(int count, IntFunction<Uni<T>> call) throws Exception {
        List<CompletableFuture<T>> answers = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            answers.add(new CompletableFuture<>());
        }
        ContextInternal loop = (ContextInternal) vertx.getOrCreateContext();
        CompletableFuture<Void> submitted = new CompletableFuture<>();
        loop.runOnContext(ignored -> {
            for (int i = 0; i < count; i++) {
                CompletableFuture<T> answer = answers.get(i);
                int index = i;
                loop.duplicate().emit(null, v -> {
                    try {
                        call.apply(index).subscribe().with(answer::complete, answer::completeExceptionally);
                    } catch (RuntimeException e) {
                        answer.completeExceptionally(e);
                    }
                });
            }
            submitted.complete(null);
        });
        submitted.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        return answers;
    }

    private static String form(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
