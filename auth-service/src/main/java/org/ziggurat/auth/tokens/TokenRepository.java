package org.ziggurat.auth.tokens;

import org.ziggurat.auth.throughput.GroupCommit;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.oauth.Scopes;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * Tokens and codes by their keyed hashes. Issuing is one INSERT (the access token and, when
 * there is one, its refresh token); validating is one look-up on the unique hash index.
 */
@ApplicationScoped
public class TokenRepository {

    private final Pool pool;
    private final LiveAccessTokens live;
    private final AuthConfig config;

    TokenRepository(Pool pool, LiveAccessTokens live, AuthConfig config) {
        this.pool = pool;
        this.live = live;
        this.config = config;
    }

    private GroupCommit rotations;

    @PostConstruct
    void groupRotations() {
        rotations = new GroupCommit(pool, ROTATE, Math.max(1, Math.min(8, config.refreshCommitsInFlight())),
                Math.max(1, config.refreshCommitGroup()));
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
            List<String> amr, TokenBounds bounds, List<String> refreshScopes) {
    }

    /**
     * A unit of work over the token tables, on one connection in one transaction: a grant consumes
     * what it exchanges (a code, a device code) and issues its tokens, or neither happens.
     */
    public <T> Uni<T> inTransaction(Function<SqlConnection, Uni<T>> work) {
        return pool.withTransaction(work);
    }

    /** The access token (and its refresh token) in a statement of its own. */
    public Uni<Long> issue(Issue issue) {
        return issue(pool, issue);
    }

    public Uni<Long> issue(SqlClient client, Issue issue) {
        String[] scopes = issue.scopes().toArray(String[]::new);
        if (issue.refreshHash() == null) {
            return client.preparedQuery("INSERT INTO token (kind, hash, encrypted, application_id, person_id, username, "
                    + "scopes, family, expires_at, auth_time, authorization_expires_at, session_hash, amr, audience, jkt, actor) "
                    + "VALUES ('a', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id")
                    .execute(Tuple.tuple().addValue(Buffer.buffer(issue.accessHash())).addValue(Buffer.buffer(issue.accessSealed()))
                            .addValue(issue.applicationId()).addValue(issue.personId()).addValue(issue.username())
                            .addValue(scopes).addValue(issue.family()).addValue(issue.accessExpires())
                            .addValue(TokenRow.utcSeconds(issue.authTime())).addValue(issue.authorizationExpires())
                            .addValue(buffer(issue.sessionHash())).addValue(amr(issue))
                            .addValue(array(issue.bounds().audience())).addValue(issue.bounds().jkt())
                            .addValue(issue.bounds().actor()))
                    .map(rows -> rows.iterator().next().getLong("id"));
        }
        return client.preparedQuery("INSERT INTO token (kind, hash, encrypted, application_id, person_id, username, "
                + "scopes, family, expires_at, auth_time, authorization_expires_at, session_hash, amr, audience, jkt, actor) "
                + "VALUES ('a', $1, $2, $3, $4, $5, $6, $7, $8, $11, $12, $13, $14, $15, $17, $19), "
                + "('r', $9, NULL, $3, $4, $5, $16, $7, least($10, $12), $11, $12, $13, $14, $18, $20, NULL) RETURNING id, kind")
                .execute(Tuple.tuple().addValue(Buffer.buffer(issue.accessHash())).addValue(Buffer.buffer(issue.accessSealed()))
                        .addValue(issue.applicationId()).addValue(issue.personId()).addValue(issue.username())
                        .addValue(scopes).addValue(issue.family()).addValue(issue.accessExpires())
                        .addValue(Buffer.buffer(issue.refreshHash())).addValue(issue.refreshExpires())
                        .addValue(TokenRow.utcSeconds(issue.authTime())).addValue(issue.authorizationExpires())
                        .addValue(buffer(issue.sessionHash())).addValue(amr(issue))
                        .addValue(array(issue.bounds().audience())).addValue(issue.refreshScopes().toArray(String[]::new))
                        .addValue(issue.bounds().jkt()).addValue(array(issue.bounds().grantAudience()))
                        .addValue(issue.bounds().actor())
                        .addValue(issue.bounds().refreshBound() ? issue.bounds().jkt() : null))
                .map(rows -> {
                    for (var row : rows) {
                        if ("a".equals(row.getString("kind"))) {
                            return row.getLong("id");
                        }
                    }
                    throw new IllegalStateException("no access token row");
                });
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

    /** The new pair of a refresh: the values' hashes, the access token's sealed value, the expiries. */
    public record Rotation(byte[] refreshHash, Long applicationId, List<String> narrowedTo, byte[] accessHash,
            byte[] accessSealed, OffsetDateTime accessExpires, byte[] newRefreshHash, OffsetDateTime refreshExpires) {
    }

    /**
     * What a rotation stored: the new access token's id and scopes, and for the ID token its
     * person (null for none), when and how they signed in (null when unknown).
     */
    public record Rotated(long accessTokenId, List<String> scopes, Long personId, Instant authTime, List<String> amr) {
    }

    /**
     * A refresh in one statement, and so one commit: the live, unused refresh token of this client
     * (or of no client, for the password grant's without one) and of at least the narrowed scopes
     * is marked used, and the new pair joins its family. Narrowing narrows the new access token
     * only: the new refresh token keeps the grant's scopes (RFC 6749 §6). One statement, not a
     * transaction of four round trips (BEGIN, the rotation, the insert, COMMIT), since round trips
     * are what a refresh costs besides its commit. Null when nothing was rotated:
     * unknown, used, revoked, expired, another client's, or asked to widen; {@code RefreshTokenGrant}
     * then tells which. Of two concurrent refreshes with one token, exactly one rotates it.
     * Concurrent refreshes share commits (GroupCommit), the other half of that cost.
     */
    public Uni<Rotated> rotate(Rotation r) {
        String[] narrowed = r.narrowedTo() == null ? null : r.narrowedTo().toArray(String[]::new);
        String[] required = r.narrowedTo() == null ? new String[0] : Scopes.granted(r.narrowedTo()).toArray(String[]::new);
        return rotations.execute(Tuple.tuple().addValue(Buffer.buffer(r.refreshHash()))
                        .addValue(r.applicationId()).addValue(required).addValue(narrowed)
                        .addValue(Buffer.buffer(r.accessHash())).addValue(Buffer.buffer(r.accessSealed()))
                        .addValue(r.accessExpires()).addValue(Buffer.buffer(r.newRefreshHash())).addValue(r.refreshExpires()))
                .map(TokenRepository::rotated);
    }

    /** The new access token of a rotation's statement; null when it rotated nothing. */
    private static Rotated rotated(RowSet<Row> rows) {
        if (rows.rowCount() == 0) {
            return null;
        }
        Row row = rows.iterator().next();
        return new Rotated(row.getLong("id"), List.of(row.getArrayOfStrings("scopes")), row.getLong("person_id"),
                TokenRow.instant(row, "auth_time"), TokenRow.amr(row));
    }

    private static final String ROTATE = "WITH used AS (UPDATE token SET used_at = now(), updated_at = now() "
            + "WHERE hash = $1 AND kind = 'r' AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now() "
            // A grant with resources or a DPoP key takes rotateBound's way (RefreshTokenGrant).
            + "AND audience IS NULL AND jkt IS NULL "
            + "AND application_id IS NOT DISTINCT FROM $2::bigint AND scopes @> $3::text[] "
            + "RETURNING person_id, username, scopes, family, auth_time, authorization_expires_at, session_hash, amr), "
            + "issued AS (INSERT INTO token (kind, hash, encrypted, application_id, person_id, username, scopes, family, "
            + "expires_at, auth_time, authorization_expires_at, session_hash, amr) "
            + "SELECT n.kind, n.hash, n.encrypted, $2, u.person_id, u.username, "
            + "CASE WHEN n.kind = 'a' THEN coalesce($4::text[], u.scopes) ELSE u.scopes END, "
            // A refresh token lives its lifetime from now, but never past the authorization's end.
            + "u.family, CASE WHEN n.kind = 'r' THEN least(n.expires_at, u.authorization_expires_at) ELSE n.expires_at END, "
            + "u.auth_time, u.authorization_expires_at, u.session_hash, u.amr FROM used u, (VALUES ('a', $5::bytea, $6::bytea, $7::timestamptz), "
            + "('r', $8::bytea, NULL::bytea, $9::timestamptz)) AS n(kind, hash, encrypted, expires_at) "
            + "RETURNING id, kind, scopes, person_id, auth_time, amr) "
            + "SELECT id, scopes, person_id, auth_time, amr FROM issued WHERE kind = 'a'";

    /**
     * A refresh whose new access token is known in full beforehand ({@code RefreshTokenGrant} read
     * the refresh token first): its scopes and audience, its DPoP key, and for a JWT its value. The
     * refresh token must still be live and unused, this client's, bound to {@code refreshJkt} (null:
     * to no key), and hold {@code required}; the new refresh token keeps its grant's scopes,
     * audience and key. One statement, as {@link #rotate}; null when nothing was rotated.
     */
    public record BoundRotation(byte[] refreshHash, Long applicationId, List<String> required, List<String> accessScopes,
            byte[] accessHash, byte[] accessSealed, OffsetDateTime accessExpires, byte[] newRefreshHash,
            OffsetDateTime refreshExpires, List<String> accessAudience, String accessJkt, String refreshJkt) {
    }

    public Uni<Rotated> rotateBound(BoundRotation r) {
        return pool.preparedQuery(ROTATE_BOUND).execute(Tuple.tuple().addValue(Buffer.buffer(r.refreshHash()))
                        .addValue(r.applicationId()).addValue(r.required().toArray(String[]::new))
                        .addValue(r.accessScopes().toArray(String[]::new))
                        .addValue(Buffer.buffer(r.accessHash())).addValue(Buffer.buffer(r.accessSealed()))
                        .addValue(r.accessExpires()).addValue(Buffer.buffer(r.newRefreshHash())).addValue(r.refreshExpires())
                        .addValue(array(r.accessAudience())).addValue(r.accessJkt()).addValue(r.refreshJkt()))
                .map(TokenRepository::rotated);
    }

    private static final String ROTATE_BOUND = "WITH used AS (UPDATE token SET used_at = now(), updated_at = now() "
            + "WHERE hash = $1 AND kind = 'r' AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now() "
            + "AND application_id IS NOT DISTINCT FROM $2::bigint AND scopes @> $3::text[] AND jkt IS NOT DISTINCT FROM $12::text "
            + "RETURNING person_id, username, scopes, family, auth_time, authorization_expires_at, session_hash, amr, audience, jkt), "
            + "issued AS (INSERT INTO token (kind, hash, encrypted, application_id, person_id, username, scopes, family, "
            + "expires_at, auth_time, authorization_expires_at, session_hash, amr, audience, jkt) "
            + "SELECT n.kind, n.hash, n.encrypted, $2, u.person_id, u.username, "
            + "CASE WHEN n.kind = 'a' THEN $4::text[] ELSE u.scopes END, "
            + "u.family, CASE WHEN n.kind = 'r' THEN least(n.expires_at, u.authorization_expires_at) ELSE n.expires_at END, "
            + "u.auth_time, u.authorization_expires_at, u.session_hash, u.amr, "
            + "CASE WHEN n.kind = 'a' THEN $10::text[] ELSE u.audience END, CASE WHEN n.kind = 'a' THEN $11::text ELSE u.jkt END "
            + "FROM used u, (VALUES ('a', $5::bytea, $6::bytea, $7::timestamptz), "
            + "('r', $8::bytea, NULL::bytea, $9::timestamptz)) AS n(kind, hash, encrypted, expires_at) "
            + "RETURNING id, kind, scopes, person_id, auth_time, amr) "
            + "SELECT id, scopes, person_id, auth_time, amr FROM issued WHERE kind = 'a'";

    /** Revokes every token of one authorization; the number revoked. */
    public Uni<Integer> revokeFamily(UUID family) {
        return pool.preparedQuery("UPDATE token SET revoked_at = now(), updated_at = now() "
                + "WHERE family = $1 AND revoked_at IS NULL RETURNING hash").execute(Tuple.of(family))
                .map(this::forgetRevoked);
    }

    /**
     * Every live token of the person, whatever its application, and every login session and
     * pending sign-in of theirs, in one transaction: after a new password, nobody is signed in as
     * them. The number of tokens revoked.
     */
    public Uni<Integer> signOutEverywhere(long personId) {
        return pool.withTransaction(conn -> conn.preparedQuery("UPDATE token SET revoked_at = now(), updated_at = now() "
                        + "WHERE person_id = $1 AND revoked_at IS NULL RETURNING hash").execute(Tuple.of(personId))
                .call(() -> conn.preparedQuery("DELETE FROM login_session WHERE person_id = $1").execute(Tuple.of(personId)))
                .call(() -> conn.preparedQuery("DELETE FROM pending_sign_in WHERE person_id = $1").execute(Tuple.of(personId))))
                .map(this::forgetRevoked);
    }

    /**
     * The person's live tokens that no application holds: those a script got with the password
     * itself (the password grant without a client), and what was made from them (their family: the
     * API form's grants, exchanges). A new password ends them; they are listed nowhere the person
     * could end them one by one. How many.
     */
    public Uni<Integer> revokeObtainedWithPassword(long personId) {
        return pool.preparedQuery("UPDATE token SET revoked_at = now(), updated_at = now() "
                        + "WHERE person_id = $1 AND (application_id IS NULL OR family IN (SELECT c.family FROM token c WHERE c.person_id = $1 AND c.application_id IS NULL)) AND revoked_at IS NULL RETURNING hash")
                .execute(Tuple.of(personId)).map(this::forgetRevoked);
    }

    /**
     * After a password changed through the API: every sign-in of the person ends (login sessions,
     * pending sign-ins, the tokens bound to them) and so do the tokens of the client-less password
     * grant; applications the person gave access keep theirs. One statement. How many tokens.
     */
    public Uni<Integer> signOutKeepingApplications(long personId) {
        return pool.preparedQuery("WITH ended AS (DELETE FROM login_session WHERE person_id = $1 RETURNING session_hash), "
                        + "pending AS (DELETE FROM pending_sign_in WHERE person_id = $1) "
                        + "UPDATE token SET revoked_at = now(), updated_at = now() WHERE person_id = $1 AND revoked_at IS NULL "
                        + "AND ((application_id IS NULL OR family IN (SELECT c.family FROM token c WHERE c.person_id = $1 AND c.application_id IS NULL)) OR session_hash IN (SELECT session_hash FROM ended)) RETURNING hash")
                .execute(Tuple.of(personId)).map(this::forgetRevoked);
    }

    /**
     * On the account page, after a new password ({@code singleFactorOnly} false) or a first second
     * factor (true): the person's other sign-ins end (login sessions but {@code keep}, and with a new
     * password every pending sign-in too; with a factor, only the sessions that did not use one),
     * with the tokens bound to them; after a new password the client-less password grant's tokens
     * too. (After a factor, those stay single-factor tokens: an organization that requires one asks
     * them to step up.) Applications the person gave access keep theirs. One statement; how many tokens.
     */
    public Uni<Integer> signOutOthersKeepingApplications(long personId, byte[] keep, boolean singleFactorOnly) {
        String sessions = "person_id = $1 AND session_hash <> $2" + (singleFactorOnly ? " AND NOT ('mfa' = ANY (amr))" : "");
        return pool.preparedQuery("WITH ended AS (DELETE FROM login_session WHERE " + sessions + " RETURNING session_hash), "
                        + "pending AS (DELETE FROM pending_sign_in WHERE person_id = $1 AND NOT $3) "
                        + "UPDATE token SET revoked_at = now(), updated_at = now() WHERE person_id = $1 AND revoked_at IS NULL "
                        + "AND ((application_id IS NULL OR family IN (SELECT c.family FROM token c WHERE c.person_id = $1 AND c.application_id IS NULL)) AND NOT $3 OR session_hash IN (SELECT session_hash FROM ended)) "
                        + "RETURNING hash")
                .execute(Tuple.of(personId, io.vertx.core.buffer.Buffer.buffer(keep), singleFactorOnly))
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
