package org.ziggurat.auth.tokens;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/**
 * The {@code authorization_code} table: a code stored on consent, used once by the code grant
 * (in the transaction that issues its tokens), and a used one's family found again on a replay.
 * Only the code's keyed hash is stored.
 */
@ApplicationScoped
public class AuthorizationCodeRepository {

    private final Pool pool;

    AuthorizationCodeRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * {@code nonce} and {@code authTime}: the OpenID Connect request's nonce, and when the person
     * signed in; {@code signIn}: the login session the code was given in (null for the API form).
     * {@code resources}: what the request named (RFC 8707), null for none; {@code dpopJkt}: the DPoP
     * key the code is bound to (RFC 9449 §10), null for none; {@code authorizationEnds}: the latest
     * end of the authorization it starts (the API form's: its token's), null for the usual one;
     * {@code idTokenClaims}: the claims the request asked for its ID token (Core §5.5), null for none.
     */
    public record Code(Long applicationId, long personId, String username, String redirectUri, List<String> scopes,
            String codeChallenge, UUID family, OffsetDateTime expiresAt, boolean expired, String nonce,
            Instant authTime, SignIn signIn, List<String> resources, String dpopJkt, Instant authorizationEnds,
            List<String> idTokenClaims) {
    }

    /**
     * Stores a code; false when its nonce was used for another code of the same client before
     * (kept until the codes are purged, a day after they expire).
     */
    public Uni<Boolean> insert(byte[] hash, Code code) {
        return pool.preparedQuery("INSERT INTO authorization_code (code_hash, application_id, person_id, username, "
                + "redirect_uri, scopes, code_challenge, family, expires_at, nonce, auth_time, session_hash, resources, dpop_jkt, "
                + "authorization_ends, id_token_claims) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) "
                + "ON CONFLICT (application_id, nonce) WHERE nonce IS NOT NULL DO NOTHING")
                .execute(Tuple.tuple().addValue(Buffer.buffer(hash)).addValue(code.applicationId())
                        .addValue(code.personId()).addValue(code.username()).addValue(code.redirectUri())
                        .addValue(code.scopes().toArray(String[]::new)).addValue(code.codeChallenge())
                        .addValue(code.family()).addValue(code.expiresAt()).addValue(code.nonce())
                        .addValue(TokenRow.utcSeconds(code.authTime()))
                        .addValue(buffer(code.signIn() == null ? null : code.signIn().sessionHash()))
                        .addValue(code.resources() == null ? null : code.resources().toArray(String[]::new))
                        .addValue(code.dpopJkt())
                        .addValue(code.authorizationEnds() == null ? null
                                : OffsetDateTime.ofInstant(code.authorizationEnds(), java.time.ZoneOffset.UTC))
                        .addValue(code.idTokenClaims() == null ? null : code.idTokenClaims().toArray(String[]::new)))
                .map(rows -> rows.rowCount() == 1);
    }

    /**
     * Uses a code once: the code's data when this call used it, null when it was unknown or used
     * before. Its sign-in's end is read with it: null when that session ended meanwhile.
     */
    public Uni<Code> consume(SqlClient client, byte[] hash) {
        return client.preparedQuery("UPDATE authorization_code c SET used_at = now() WHERE code_hash = $1 AND used_at IS NULL "
                + "RETURNING application_id, person_id, username, redirect_uri, scopes, code_challenge, family, expires_at, "
                + "expires_at <= now() AS expired, nonce, auth_time, session_hash, resources, dpop_jkt, authorization_ends, id_token_claims, (SELECT s.expires_at FROM login_session s "
                + "WHERE s.session_hash = c.session_hash AND s.expires_at > now()) AS session_expires_at, "
                + "(SELECT s.amr FROM login_session s WHERE s.session_hash = c.session_hash) AS session_amr")
                .execute(Tuple.of(Buffer.buffer(hash)))
                .map(rows -> {
                    if (rows.rowCount() == 0) {
                        return null;
                    }
                    var r = rows.iterator().next();
                    return new Code(r.getLong("application_id"), r.getLong("person_id"), r.getString("username"),
                            r.getString("redirect_uri"), List.of(r.getArrayOfStrings("scopes")),
                            r.getString("code_challenge"), r.getUUID("family"),
                            r.getOffsetDateTime("expires_at"), r.getBoolean("expired"), r.getString("nonce"),
                            TokenRow.instant(r, "auth_time"), SignIn.of(r), TokenRow.strings(r, "resources"),
                            r.getString("dpop_jkt"), TokenRow.instant(r, "authorization_ends"),
                            TokenRow.strings(r, "id_token_claims"));
                });
    }

    /** The family of a code that was used already: a replay, whose tokens are to be revoked. */
    public Uni<UUID> familyOfUsed(byte[] hash) {
        return pool.preparedQuery("SELECT family FROM authorization_code WHERE code_hash = $1 AND used_at IS NOT NULL")
                .execute(Tuple.of(Buffer.buffer(hash)))
                .map(rows -> rows.rowCount() == 0 ? null : rows.iterator().next().getUUID("family"));
    }

    private static Buffer buffer(byte[] bytes) {
        return bytes == null ? null : Buffer.buffer(bytes);
    }
}
