package org.ziggurat.auth.tokens;

import org.ziggurat.auth.throughput.GroupCommit;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.oauth.Scopes;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * A refresh token's rotation: the used token marked and the new pair issued into its family, in one
 * statement and so one commit, with concurrent refreshes sharing commits ({@link GroupCommit}).
 */
@ApplicationScoped
public class RefreshRotationRepository {

    private final Pool pool;
    private final AuthConfig config;

    RefreshRotationRepository(Pool pool, AuthConfig config) {
        this.pool = pool;
        this.config = config;
    }

    private GroupCommit rotations;

    @PostConstruct
    void groupRotations() {
        rotations = new GroupCommit(pool, ROTATE, Math.max(1, Math.min(8, config.refreshCommitsInFlight())),
                Math.max(1, config.refreshCommitGroup()));
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
                .map(RefreshRotationRepository::rotated);
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
            OffsetDateTime refreshExpires, List<String> accessAudience, String accessJkt, String refreshJkt,
            StatusIndex accessStatus) {
    }

    public Uni<Rotated> rotateBound(BoundRotation r) {
        return pool.preparedQuery(ROTATE_BOUND).execute(Tuple.tuple().addValue(Buffer.buffer(r.refreshHash()))
                        .addValue(r.applicationId()).addValue(r.required().toArray(String[]::new))
                        .addValue(r.accessScopes().toArray(String[]::new))
                        .addValue(Buffer.buffer(r.accessHash())).addValue(Buffer.buffer(r.accessSealed()))
                        .addValue(r.accessExpires()).addValue(Buffer.buffer(r.newRefreshHash())).addValue(r.refreshExpires())
                        .addValue(r.accessAudience() == null ? null : r.accessAudience().toArray(String[]::new)).addValue(r.accessJkt()).addValue(r.refreshJkt())
                        .addValue(r.accessStatus() == null ? null : r.accessStatus().list())
                        .addValue(r.accessStatus() == null ? null : r.accessStatus().idx()))
                .map(RefreshRotationRepository::rotated);
    }

    private static final String ROTATE_BOUND = "WITH used AS (UPDATE token SET used_at = now(), updated_at = now() "
            + "WHERE hash = $1 AND kind = 'r' AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now() "
            + "AND application_id IS NOT DISTINCT FROM $2::bigint AND scopes @> $3::text[] AND jkt IS NOT DISTINCT FROM $12::text "
            + "RETURNING person_id, username, scopes, family, auth_time, authorization_expires_at, session_hash, amr, audience, jkt), "
            + "issued AS (INSERT INTO token (kind, hash, encrypted, application_id, person_id, username, scopes, family, "
            + "expires_at, auth_time, authorization_expires_at, session_hash, amr, audience, jkt, status_list, status_idx) "
            + "SELECT n.kind, n.hash, n.encrypted, $2, u.person_id, u.username, "
            + "CASE WHEN n.kind = 'a' THEN $4::text[] ELSE u.scopes END, "
            + "u.family, CASE WHEN n.kind = 'r' THEN least(n.expires_at, u.authorization_expires_at) ELSE n.expires_at END, "
            + "u.auth_time, u.authorization_expires_at, u.session_hash, u.amr, "
            + "CASE WHEN n.kind = 'a' THEN $10::text[] ELSE u.audience END, CASE WHEN n.kind = 'a' THEN $11::text ELSE u.jkt END, "
            + "CASE WHEN n.kind = 'a' THEN $13::integer END, CASE WHEN n.kind = 'a' THEN $14::integer END "
            + "FROM used u, (VALUES ('a', $5::bytea, $6::bytea, $7::timestamptz), "
            + "('r', $8::bytea, NULL::bytea, $9::timestamptz)) AS n(kind, hash, encrypted, expires_at) "
            + "RETURNING id, kind, scopes, person_id, auth_time, amr) "
            + "SELECT id, scopes, person_id, auth_time, amr FROM issued WHERE kind = 'a'";
}
