package org.ziggurat.auth.tokens;

import io.vertx.mutiny.sqlclient.Row;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * A live or past token, with its application's client id (null when it has none), and when and
 * how its person signed in ({@code authTime}, {@code amr}: null when not known). {@code audience}:
 * an access token's resources (null: the platform API), a refresh token's grant's (null: any);
 * {@code jkt}: the DPoP key it is bound to, null for none; {@code actor}: the RFC 8693 act claim
 * (JSON) of an exchanged token, null for others.
 */
public record TokenRow(long id, char kind, Long applicationId, String clientId, Long personId, String username,
        List<String> scopes, UUID family, Instant expiresAt, Instant usedAt, Instant revokedAt, Instant createdAt,
        Instant authorizationExpiresAt, Instant authTime, List<String> amr, List<String> audience, String jkt, String actor) {

    static final String SELECT = "SELECT t.id, t.kind, t.application_id, a.client_id, t.person_id, t.username, t.scopes, "
            + "t.family, t.expires_at, t.used_at, t.revoked_at, t.created_at, t.authorization_expires_at, t.auth_time, t.amr, t.audience, t.jkt, t.actor FROM token t "
            + "LEFT JOIN application a ON a.id = t.application_id ";

    public boolean isAccess() {
        return kind == 'a';
    }

    public boolean isLive(Instant now) {
        return revokedAt == null && expiresAt.isAfter(now);
    }

    static TokenRow from(Row row) {
        return new TokenRow(row.getLong("id"), row.getString("kind").charAt(0), row.getLong("application_id"),
                row.getString("client_id"), row.getLong("person_id"), row.getString("username"),
                Arrays.asList(row.getArrayOfStrings("scopes")), row.getUUID("family"),
                row.getOffsetDateTime("expires_at").toInstant(), instant(row, "used_at"), instant(row, "revoked_at"),
                row.getOffsetDateTime("created_at").toInstant(), row.getOffsetDateTime("authorization_expires_at").toInstant(),
                instant(row, "auth_time"), amr(row), strings(row, "audience"), row.getString("jkt"), row.getString("actor"));
    }

    /** A nullable text[] column as a list; null when null. */
    static List<String> strings(Row row, String column) {
        String[] values = row.getArrayOfStrings(column);
        return values == null ? null : List.of(values);
    }

    /** The token's {@code amr} column: how its person signed in; null when not known. */
    static List<String> amr(Row row) {
        String[] amr = row.getArrayOfStrings("amr");
        return amr == null ? null : List.of(amr);
    }

    /** A nullable timestamp column as an instant, for this package's rows. */
    static Instant instant(Row row, String column) {
        var value = row.getOffsetDateTime(column);
        return value == null ? null : value.toInstant();
    }

    /** A nullable instant as the client binds a timestamptz, to the second (as ID tokens carry it). */
    static OffsetDateTime utcSeconds(Instant instant) {
        return instant == null ? null : OffsetDateTime.ofInstant(instant.truncatedTo(ChronoUnit.SECONDS), ZoneOffset.UTC);
    }
}
