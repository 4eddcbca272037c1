package org.ziggurat.directory.people;

import io.vertx.mutiny.sqlclient.Row;

import java.time.Instant;

/** One person as stored, minus the password hash and the avatar bytes. */
public record PersonRow(long id, String username, String displayName, String email, String publicEmail,
        boolean twoFactorEnabled, boolean hasAvatar, Instant createdAt, Instant updatedAt) {

    static final String COLUMNS = "id, username, display_name, email, public_email, two_factor_enabled, "
            + "avatar IS NOT NULL AS has_avatar, created_at, updated_at";

    static PersonRow from(Row row) {
        return new PersonRow(row.getLong("id"), row.getString("username"), row.getString("display_name"),
                row.getString("email"), row.getString("public_email"), row.getBoolean("two_factor_enabled"),
                row.getBoolean("has_avatar"), row.getOffsetDateTime("created_at").toInstant(),
                row.getOffsetDateTime("updated_at").toInstant());
    }
}
