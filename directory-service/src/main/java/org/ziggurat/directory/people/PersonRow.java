package org.ziggurat.directory.people;

import io.vertx.mutiny.sqlclient.Row;

import java.time.Instant;

/**
 * One person as stored, minus the password hash and the avatar bytes. {@code emailVerified}: the
 * sign-in address is the one its owner proved theirs (the link mailed to it); {@code details}: the
 * optional standard profile claims.
 */
public record PersonRow(long id, String username, String displayName, String email, String publicEmail,
        boolean twoFactorEnabled, boolean hasAvatar, Instant createdAt, Instant updatedAt, boolean emailVerified,
        ProfileDetails details) {

    /** The columns {@link #from} reads, qualified by the alias the query gives the person table. */
    public static String columns(String alias) {
        return String.format("%1$s.id, %1$s.username, %1$s.display_name, %1$s.email, %1$s.public_email, "
                + "%1$s.two_factor_enabled, %1$s.avatar IS NOT NULL AS has_avatar, %1$s.created_at, %1$s.updated_at, "
                + "%1$s.email_verified_at IS NOT NULL AS email_verified, ",
                alias) + ProfileDetails.columns(alias);
    }

    /**
     * Whether the person whose id is the SQL expression {@code personId} has a second factor, as
     * SQL: from the factors themselves (a confirmed TOTP key, or a passkey). {@code two_factor_enabled}
     * is set from it in every transaction that changes the factors (FactorRepository), for the
     * reads of every person.
     */
    public static String hasSecondFactor(String personId) {
        return "(EXISTS (SELECT 1 FROM totp_factor tf WHERE tf.person_id = " + personId + " AND tf.confirmed_at IS NOT NULL)"
                + " OR EXISTS (SELECT 1 FROM passkey pk WHERE pk.person_id = " + personId + "))";
    }

    static final String COLUMNS = columns("person");

    public static PersonRow from(Row row) {
        String email = row.getString("email");
        boolean verified = row.getBoolean("email_verified");
        return new PersonRow(row.getLong("id"), row.getString("username"), row.getString("display_name"),
                email, publicEmail(row.getString("public_email"), email, verified), row.getBoolean("two_factor_enabled"),
                row.getBoolean("has_avatar"), row.getOffsetDateTime("created_at").toInstant(),
                row.getOffsetDateTime("updated_at").toInstant(), verified, ProfileDetails.from(row));
    }

    /**
     * The public address as shown: only the verified sign-in address may be public (a change of
     * address clears it; one set before addresses were verified is not shown until it is).
     */
    static String publicEmail(String publicEmail, String email, boolean verified) {
        return publicEmail != null && verified && publicEmail.equalsIgnoreCase(email) ? publicEmail : null;
    }
}
