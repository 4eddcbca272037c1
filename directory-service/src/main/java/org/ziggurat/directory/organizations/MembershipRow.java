package org.ziggurat.directory.organizations;

import io.vertx.mutiny.sqlclient.Row;

import java.time.Instant;

/** A person's place in an organization, with what the Membership view shows of both. */
public record MembershipRow(long organizationId, String organizationName, long personId, String username,
        String role, String state, Instant createdAt, Instant updatedAt) {

    public static final String ACTIVE = "active";
    public static final String PENDING = "pending";
    public static final String ADMIN = "admin";
    public static final String MEMBER = "member";

    static final String SELECT = "SELECT m.organization_id, o.name AS organization_name, m.person_id, p.username, "
            + "m.role, m.state, m.created_at, m.updated_at FROM membership m "
            + "JOIN organization o ON o.id = m.organization_id JOIN person p ON p.id = m.person_id ";

    public boolean isActive() {
        return ACTIVE.equals(state);
    }

    public boolean isActiveAdmin() {
        return isActive() && ADMIN.equals(role);
    }

    static MembershipRow from(Row row) {
        return new MembershipRow(row.getLong("organization_id"), row.getString("organization_name"),
                row.getLong("person_id"), row.getString("username"), row.getString("role"), row.getString("state"),
                row.getOffsetDateTime("created_at").toInstant(), row.getOffsetDateTime("updated_at").toInstant());
    }
}
