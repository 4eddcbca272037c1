package org.ziggurat.auth.tokens;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

/**
 * Tokens and codes by their keyed hashes. Issuing is one INSERT (the access token and, when
 * there is one, its refresh token); validating is one look-up on the unique hash index.
 */
@ApplicationScoped
public class TokenRepository {

    @Inject
    Pool pool;

    /** What to issue: the values' hashes and the access token's sealed value. */
    public record Issue(byte[] accessHash, byte[] accessSealed, byte[] refreshHash, Long applicationId, Long personId,
            String username, List<String> scopes, UUID family, OffsetDateTime accessExpires,
            OffsetDateTime refreshExpires) {
    }

    public record Code(Long applicationId, long personId, String username, String redirectUri, List<String> scopes,
            String codeChallenge, UUID family, OffsetDateTime expiresAt, boolean expired) {
    }

    public Uni<Long> issue(SqlClient client, Issue issue) {
        String[] scopes = issue.scopes().toArray(String[]::new);
        if (issue.refreshHash() == null) {
            return client.preparedQuery("INSERT INTO token (kind, hash, encrypted, application_id, person_id, username, "
                    + "scopes, family, expires_at) VALUES ('a', $1, $2, $3, $4, $5, $6, $7, $8) RETURNING id")
                    .execute(Tuple.tuple().addValue(Buffer.buffer(issue.accessHash())).addValue(Buffer.buffer(issue.accessSealed()))
                            .addValue(issue.applicationId()).addValue(issue.personId()).addValue(issue.username())
                            .addValue(scopes).addValue(issue.family()).addValue(issue.accessExpires()))
                    .map(rows -> rows.iterator().next().getLong("id"));
        }
        return client.preparedQuery("INSERT INTO token (kind, hash, encrypted, application_id, person_id, username, "
                + "scopes, family, expires_at) VALUES ('a', $1, $2, $3, $4, $5, $6, $7, $8), "
                + "('r', $9, NULL, $3, $4, $5, $6, $7, $10) RETURNING id, kind")
                .execute(Tuple.tuple().addValue(Buffer.buffer(issue.accessHash())).addValue(Buffer.buffer(issue.accessSealed()))
                        .addValue(issue.applicationId()).addValue(issue.personId()).addValue(issue.username())
                        .addValue(scopes).addValue(issue.family()).addValue(issue.accessExpires())
                        .addValue(Buffer.buffer(issue.refreshHash())).addValue(issue.refreshExpires()))
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
    public Uni<TokenRow> byHash(byte[] hash) {
        return pool.preparedQuery(TokenRow.SELECT + "WHERE t.hash = $1").execute(Tuple.of(Buffer.buffer(hash)))
                .map(rows -> rows.rowCount() == 0 ? null : TokenRow.from(rows.iterator().next()));
    }

    /**
     * Marks a live refresh token used, atomically: of two concurrent refreshes with one token,
     * exactly one gets the row back.
     */
    public Uni<TokenRow> rotate(SqlClient client, byte[] hash) {
        return client.preparedQuery("WITH used AS (UPDATE token SET used_at = now(), updated_at = now() "
                + "WHERE hash = $1 AND kind = 'r' AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now() "
                + "RETURNING *) SELECT t.id, t.kind, t.application_id, a.client_id, t.person_id, t.username, t.scopes, "
                + "t.family, t.expires_at, t.used_at, t.revoked_at, t.created_at FROM used t "
                + "LEFT JOIN application a ON a.id = t.application_id")
                .execute(Tuple.of(Buffer.buffer(hash)))
                .map(rows -> rows.rowCount() == 0 ? null : TokenRow.from(rows.iterator().next()));
    }

    /** Revokes every token of one authorization; the number revoked. */
    public Uni<Integer> revokeFamily(UUID family) {
        return pool.preparedQuery("UPDATE token SET revoked_at = now(), updated_at = now() "
                + "WHERE family = $1 AND revoked_at IS NULL").execute(Tuple.of(family)).map(rows -> rows.rowCount());
    }

    public Uni<Integer> revokeOne(long id) {
        return pool.preparedQuery("UPDATE token SET revoked_at = now(), updated_at = now() "
                + "WHERE id = $1 AND revoked_at IS NULL").execute(Tuple.of(id)).map(rows -> rows.rowCount());
    }

    public Uni<Void> insertCode(byte[] hash, Code code) {
        return pool.preparedQuery("INSERT INTO authorization_code (code_hash, application_id, person_id, username, "
                + "redirect_uri, scopes, code_challenge, family, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)")
                .execute(Tuple.tuple().addValue(Buffer.buffer(hash)).addValue(code.applicationId())
                        .addValue(code.personId()).addValue(code.username()).addValue(code.redirectUri())
                        .addValue(code.scopes().toArray(String[]::new)).addValue(code.codeChallenge())
                        .addValue(code.family()).addValue(code.expiresAt()))
                .replaceWithVoid();
    }

    /** Uses a code once: the code's data when this call used it, null when it was unknown or used before. */
    public Uni<Code> consumeCode(SqlClient client, byte[] hash) {
        return client.preparedQuery("UPDATE authorization_code SET used_at = now() WHERE code_hash = $1 AND used_at IS NULL "
                + "RETURNING application_id, person_id, username, redirect_uri, scopes, code_challenge, family, expires_at, "
                + "expires_at <= now() AS expired")
                .execute(Tuple.of(Buffer.buffer(hash)))
                .map(rows -> {
                    if (rows.rowCount() == 0) {
                        return null;
                    }
                    var r = rows.iterator().next();
                    return new Code(r.getLong("application_id"), r.getLong("person_id"), r.getString("username"),
                            r.getString("redirect_uri"), List.of(r.getArrayOfStrings("scopes")),
                            r.getString("code_challenge"), r.getUUID("family"),
                            r.getOffsetDateTime("expires_at"), r.getBoolean("expired"));
                });
    }

    /** The family of a code that was used already: a replay, whose tokens are to be revoked. */
    public Uni<UUID> familyOfUsedCode(byte[] hash) {
        return pool.preparedQuery("SELECT family FROM authorization_code WHERE code_hash = $1 AND used_at IS NOT NULL")
                .execute(Tuple.of(Buffer.buffer(hash)))
                .map(rows -> rows.rowCount() == 0 ? null : rows.iterator().next().getUUID("family"));
    }

    /** Removes what expired a day ago or more (a day of grace keeps recent revocations explainable). */
    public Uni<Integer> purgeExpired() {
        OffsetDateTime cutoff = OffsetDateTime.now(ZoneOffset.UTC).minusDays(1);
        return pool.preparedQuery("DELETE FROM token WHERE expires_at < $1").execute(Tuple.of(cutoff))
                .chain(tokens -> pool.preparedQuery("DELETE FROM authorization_code WHERE expires_at < $1")
                        .execute(Tuple.of(cutoff)).map(codes -> tokens.rowCount() + codes.rowCount()))
                .chain(count -> pool.preparedQuery("DELETE FROM login_session WHERE expires_at < now()").execute()
                        .map(sessions -> count + sessions.rowCount()));
    }
}
