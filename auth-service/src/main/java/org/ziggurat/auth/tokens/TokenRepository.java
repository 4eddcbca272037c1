package org.ziggurat.auth.tokens;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.throughput.GroupCommit;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * Tokens and codes by their keyed hashes. Issuing is one INSERT (the access token and, when
 * there is one, its refresh token), outside a transaction sharing its commit with concurrent
 * issues ({@link GroupCommit}); validating is one look-up on the unique hash index. A refresh's
 * rotation: {@link RefreshRotationRepository}; the end of a person's sign-ins: {@link SignOutRepository}.
 */
@ApplicationScoped
public class TokenRepository {

    private static final String COLUMNS = "INSERT INTO token (kind, hash, encrypted, application_id, person_id, username, "
            + "scopes, family, expires_at, auth_time, authorization_expires_at, session_hash, amr, audience, jkt, actor, "
            + "status_list, status_idx) ";
    static final String ACCESS_ONLY = COLUMNS
            + "VALUES ('a', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id, kind";
    static final String WITH_REFRESH = COLUMNS
            + "VALUES ('a', $1, $2, $3, $4, $5, $6, $7, $8, $11, $12, $13, $14, $15, $17, $19, $21, $22), "
            + "('r', $9, NULL, $3, $4, $5, $16, $7, least($10, $12), $11, $12, $13, $14, $18, $20, NULL, NULL, NULL) "
            + "RETURNING id, kind";

    private final Pool pool;
    private final LiveAccessTokens live;
    private final GroupCommit accessOnly;
    private final GroupCommit withRefresh;

    TokenRepository(Pool pool, LiveAccessTokens live, AuthConfig config) {
        this.pool = pool;
        this.live = live;
        // Issues outside a transaction share commits: one group commit per statement.
        int inFlight = Math.max(1, Math.min(8, config.issueCommitsInFlight()));
        int group = Math.max(1, config.issueCommitGroup());
        accessOnly = new GroupCommit(pool, ACCESS_ONLY, inFlight, group);
        withRefresh = new GroupCommit(pool, WITH_REFRESH, inFlight, group);
    }

    /** How many groups of two or more issues were committed together. */
    long issueGroupsSent() {
        return accessOnly.groupsSent() + withRefresh.groupsSent();
    }

    /**
     * What to issue: the values' hashes and the access token's sealed value. {@code authTime}: when
     * the person signed in, for ID tokens; null without a person or when unknown.
     * {@code sessionHash}: the login session the tokens end with; null when they outlive it.
     * {@code amr}: how the person signed in; null without a person or when unknown.
     * {@code scopes}: the access token's, narrowed to its audience; {@code refreshScopes}: the
     * grant's, which the refresh token keeps.
     */
    public record Issue(byte[] accessHash, byte[] accessSealed, byte[] refreshHash, Long applicationId, Long personId,
            String username, List<String> scopes, UUID family, OffsetDateTime accessExpires,
            OffsetDateTime refreshExpires, Instant authTime, OffsetDateTime authorizationExpires, byte[] sessionHash,
            List<String> amr, TokenBounds bounds, List<String> refreshScopes, StatusIndex status) {
    }

    /**
     * A unit of work over the token tables, on one connection in one transaction: a grant consumes
     * what it exchanges (a code, a device code) and issues its tokens, or neither happens.
     */
    public <T> Uni<T> inTransaction(Function<SqlConnection, Uni<T>> work) {
        return pool.withTransaction(work);
    }

    /** The access token (and its refresh token) in a statement of its own, sharing its commit with concurrent ones. */
    public Uni<Long> issue(Issue issue) {
        GroupCommit statement = issue.refreshHash() == null ? accessOnly : withRefresh;
        return statement.execute(parameters(issue)).map(TokenRepository::accessId);
    }

    /** The same on a connection of the caller's, in its transaction (a code's or a device code's). */
    public Uni<Long> issue(SqlClient client, Issue issue) {
        return client.preparedQuery(issue.refreshHash() == null ? ACCESS_ONLY : WITH_REFRESH).execute(parameters(issue))
                .map(TokenRepository::accessId);
    }

    /** The statement's parameters: $1 to $8 alike, then the refresh token's where there is one. */
    private static Tuple parameters(Issue issue) {
        Tuple p = Tuple.tuple().addValue(Buffer.buffer(issue.accessHash())).addValue(Buffer.buffer(issue.accessSealed()))
                .addValue(issue.applicationId()).addValue(issue.personId()).addValue(issue.username())
                .addValue(issue.scopes().toArray(String[]::new)).addValue(issue.family()).addValue(issue.accessExpires());
        if (issue.refreshHash() != null) {
            p.addValue(Buffer.buffer(issue.refreshHash())).addValue(issue.refreshExpires());
        }
        p.addValue(TokenRow.utcSeconds(issue.authTime())).addValue(issue.authorizationExpires())
                .addValue(buffer(issue.sessionHash())).addValue(amr(issue)).addValue(array(issue.bounds().audience()));
        if (issue.refreshHash() == null) {
            return p.addValue(issue.bounds().jkt()).addValue(issue.bounds().actor()).addValue(statusList(issue))
                    .addValue(statusIdx(issue));
        }
        return p.addValue(issue.refreshScopes().toArray(String[]::new)).addValue(issue.bounds().jkt())
                .addValue(array(issue.bounds().grantAudience())).addValue(issue.bounds().actor())
                .addValue(issue.bounds().refreshBound() ? issue.bounds().jkt() : null)
                .addValue(statusList(issue)).addValue(statusIdx(issue));
    }

    /** The access token's id among the rows an issue returned (its refresh token's is the other). */
    private static long accessId(RowSet<Row> rows) {
        for (Row row : rows) {
            if ("a".equals(row.getString("kind"))) {
                return row.getLong("id");
            }
        }
        throw new IllegalStateException("no access token row");
    }

    /** Any token by hash, live or not. */
    /**
     * What an exchanged token takes over from its subject token: its sign-in (null: none), when its
     * authorization ends, and the resources that authorization named (RFC 8707; null: none named).
     */
    public record Inherited(byte[] sessionHash, Instant authorizationEnds, List<String> grantResources) {

        public Inherited(byte[] sessionHash, Instant authorizationEnds) {
            this(sessionHash, authorizationEnds, null);
        }
    }

    /** Whether the application is verified now (read from the table, never a cache); false when it is gone. */
    public Uni<Boolean> applicationVerified(long applicationId) {
        return pool.preparedQuery("SELECT verified FROM application WHERE id = $1").execute(Tuple.of(applicationId))
                .map(rows -> rows.rowCount() == 1 && rows.iterator().next().getBoolean("verified"));
    }

    /**
     * The sign-in and authorization end of a token (by id), for a token exchanged from it; null
     * when the token is gone, or its sign-in has ended (signed out: nothing may be made from it).
     */
    public Uni<Inherited> inherited(long tokenId) {
        // The grant's resources: its refresh token keeps them (the latest of the family), else the token's own.
        return pool.preparedQuery("SELECT t.session_hash, t.authorization_expires_at, "
                        + "(t.session_hash IS NULL OR EXISTS (SELECT 1 FROM login_session s WHERE s.session_hash = t.session_hash "
                        + "AND s.expires_at > now())) AS signed_in, COALESCE((SELECT r.audience FROM token r WHERE "
                        + "r.family = t.family AND r.kind = 'r' ORDER BY r.id DESC LIMIT 1), t.audience) AS grant_resources "
                        + "FROM token t WHERE t.id = $1")
                .execute(Tuple.of(tokenId)).map(rows -> {
                    if (rows.rowCount() == 0) {
                        return null;
                    }
                    Row row = rows.iterator().next();
                    if (!row.getBoolean("signed_in")) {
                        return null;
                    }
                    var session = row.getBuffer("session_hash");
                    String[] resources = row.getArrayOfStrings("grant_resources");
                    return new Inherited(session == null ? null : session.getBytes(),
                            row.getOffsetDateTime("authorization_expires_at").toInstant(),
                            resources == null ? null : List.of(resources));
                });
    }

    public Uni<TokenRow> byHash(byte[] hash) {
        return pool.preparedQuery(TokenRow.SELECT + "WHERE t.hash = $1").execute(Tuple.of(Buffer.buffer(hash)))
                .map(rows -> rows.rowCount() == 0 ? null : TokenRow.from(rows.iterator().next()));
    }

    /** Revokes every token of one authorization; the number revoked. */
    public Uni<Integer> revokeFamily(UUID family) {
        return pool.preparedQuery("UPDATE token SET revoked_at = now(), updated_at = now() "
                + "WHERE family = $1 AND revoked_at IS NULL RETURNING hash").execute(Tuple.of(family))
                .map(this::forgetRevoked);
    }

    public Uni<Integer> revokeOne(long id) {
        return pool.preparedQuery("UPDATE token SET revoked_at = now(), updated_at = now() "
                + "WHERE id = $1 AND revoked_at IS NULL RETURNING hash").execute(Tuple.of(id)).map(this::forgetRevoked);
    }

    /**
     * Revoked tokens (a committed statement's {@code RETURNING hash}) leave this replica's memory
     * before the revocation is answered; the others hear of them at commit. The number revoked.
     */
    public int forgetRevoked(RowSet<Row> revoked) {
        List<byte[]> hashes = new ArrayList<>(revoked.rowCount());
        revoked.forEach(row -> hashes.add(row.getBuffer("hash").getBytes()));
        live.forget(hashes);
        return hashes.size();
    }

    private static Integer statusList(Issue issue) {
        return issue.status() == null ? null : issue.status().list();
    }

    private static Integer statusIdx(Issue issue) {
        return issue.status() == null ? null : issue.status().idx();
    }

    private static String[] amr(Issue issue) {
        return issue.amr() == null ? null : issue.amr().toArray(String[]::new);
    }

    private static String[] array(List<String> values) {
        return values == null ? null : values.toArray(String[]::new);
    }

    private static Buffer buffer(byte[] bytes) {
        return bytes == null ? null : Buffer.buffer(bytes);
    }

    /** Removes what expired a day ago or more (a day of grace keeps recent revocations explainable). */
    public Uni<Integer> purgeExpired() {
        OffsetDateTime cutoff = OffsetDateTime.now(ZoneOffset.UTC).minusDays(1);
        return pool.preparedQuery("DELETE FROM token WHERE expires_at < $1").execute(Tuple.of(cutoff))
                .chain(tokens -> pool.preparedQuery("DELETE FROM authorization_code WHERE expires_at < $1")
                        .execute(Tuple.of(cutoff)).map(codes -> tokens.rowCount() + codes.rowCount()))
                .chain(count -> pool.preparedQuery("DELETE FROM login_session WHERE expires_at < now()").execute()
                        .map(sessions -> count + sessions.rowCount()))
                .chain(count -> pool.preparedQuery("DELETE FROM pending_sign_in WHERE expires_at < now()").execute()
                        .map(pending -> count + pending.rowCount()))
                .chain(count -> pool.preparedQuery("DELETE FROM passkey_challenge_used WHERE expires_at < now()").execute()
                        .map(challenges -> count + challenges.rowCount()))
                .chain(count -> pool.preparedQuery("DELETE FROM federation_attempt WHERE expires_at < now()").execute()
                        .map(attempts -> count + attempts.rowCount()))
                .chain(count -> pool.preparedQuery("DELETE FROM federation_pending WHERE expires_at < now()").execute()
                        .map(pending -> count + pending.rowCount()))
                .chain(count -> pool.preparedQuery("DELETE FROM dpop_proof_used WHERE expires_at < now()").execute()
                        .map(proofs -> count + proofs.rowCount()));
    }
}
