package org.ziggurat.directory.organizations;

import com.fasterxml.jackson.databind.JsonNode;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.problem.ProblemException;

/** The bodies of the membership routes, read at the HTTP edge. */
public final class MembershipBodies {

    private MembershipBodies() {
    }

    /** PUT membership {"role": "member" | "admin"}. */
    public static String role(JsonNode body) {
        FieldChecks.object(body);
        String role = body.has("role") && body.get("role").isTextual() ? body.get("role").asText() : null;
        if (role == null || !MembershipRow.MEMBER.equals(role) && !MembershipRow.ADMIN.equals(role)) {
            throw ProblemException.invalidField("role", "must be member or admin");
        }
        return role;
    }

    /** PATCH /user/memberships/organizations/{id} {"state": "active"}: the only change a person makes. */
    public static String acceptance(JsonNode body) {
        FieldChecks.object(body);
        JsonNode state = body.get("state");
        if (state == null || !state.isTextual() || !MembershipRow.ACTIVE.equals(state.asText())) {
            throw ProblemException.invalidField("state", "must be active");
        }
        return MembershipRow.ACTIVE;
    }
}
