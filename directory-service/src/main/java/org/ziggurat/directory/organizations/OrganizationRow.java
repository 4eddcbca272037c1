package org.ziggurat.directory.organizations;

import io.vertx.mutiny.sqlclient.Row;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/** An organization with its active member ids and attached application client ids. */
public record OrganizationRow(long id, String name, String displayName, String visibility, boolean twoFactorRequired,
        List<Long> memberIds, List<String> applicationClientIds, Instant createdAt, Instant updatedAt) {

    /** One statement, no N+1: the two lists come from index look-ups inside the same query. */
    static final String SELECT = "SELECT o.id, o.name, o.display_name, o.visibility, o.two_factor_required, o.created_at, o.updated_at, "
            + "coalesce((SELECT array_agg(m.person_id ORDER BY m.person_id) FROM membership m "
            + "  WHERE m.organization_id = o.id AND m.state = 'active'), '{}') AS member_ids, "
            + "coalesce((SELECT array_agg(a.client_id ORDER BY a.client_id) FROM organization_application a "
            + "  WHERE a.organization_id = o.id), '{}') AS client_ids "
            + "FROM organization o ";

    /** Whether the person {@code $n} may see the organization: it is public, or they belong to it. */
    static String visibleTo(String param) {
        return "(o.visibility = 'public' OR EXISTS (SELECT 1 FROM membership v WHERE v.organization_id = o.id "
                + "AND v.person_id = " + param + "))";
    }

    public boolean isPublic() {
        return "public".equals(visibility);
    }

    static OrganizationRow from(Row row) {
        return new OrganizationRow(row.getLong("id"), row.getString("name"), row.getString("display_name"),
                row.getString("visibility"), row.getBoolean("two_factor_required"), Arrays.asList(row.getArrayOfLongs("member_ids")),
                Arrays.asList(row.getArrayOfStrings("client_ids")),
                row.getOffsetDateTime("created_at").toInstant(), row.getOffsetDateTime("updated_at").toInstant());
    }
}
