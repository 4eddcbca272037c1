package org.ziggurat.auth.clients;

import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Row;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/** An OAuth client as stored: its secret only as a keyed hash. */
public record ApplicationRow(long id, Long ownerId, String name, String clientId, byte[] clientSecretHash,
        boolean confidential, List<String> redirectUris, List<String> scopes, boolean passwordGrant,
        boolean introspection, Instant createdAt, Instant updatedAt) {

    static final String COLUMNS = "id, owner_id, name, client_id, client_secret_hash, confidential, redirect_uris, "
            + "scopes, password_grant, introspection, created_at, updated_at";

    public static ApplicationRow from(Row row) {
        Buffer secret = row.getBuffer("client_secret_hash");
        return new ApplicationRow(row.getLong("id"), row.getLong("owner_id"), row.getString("name"),
                row.getString("client_id"), secret == null ? null : secret.getBytes(), row.getBoolean("confidential"),
                Arrays.asList(row.getArrayOfStrings("redirect_uris")), Arrays.asList(row.getArrayOfStrings("scopes")),
                row.getBoolean("password_grant"), row.getBoolean("introspection"),
                row.getOffsetDateTime("created_at").toInstant(), row.getOffsetDateTime("updated_at").toInstant());
    }
}
