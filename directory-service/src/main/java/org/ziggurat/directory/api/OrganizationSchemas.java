package org.ziggurat.directory.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The bodies of the organization routes, for the API's description only (the services read them). */
final class OrganizationSchemas {

    private OrganizationSchemas() {
    }

    /** The body of POST /organizations, for the API's description. */
    @Schema(name = "OrganizationInput")
    record OrganizationInput(
            @Schema(required = true, maxLength = 39, description = "Unique and URL-safe: lower-case letters, digits and "
                    + "inner hyphens. It is also the organization's namespace.") String name,
            @Schema(maxLength = 255, description = "The name shown; the name when left out.") String displayName,
            @Schema(enumeration = {"public", "private"}, defaultValue = "public") String visibility) {
    }

    /** The body of PATCH /organizations/{id}. */
    @Schema(name = "OrganizationChange", description = "The fields to change; those left out stay as they are.")
    record OrganizationChange(@Schema(maxLength = 255) String displayName,
            @Schema(enumeration = {"public", "private"}) String visibility,
            @Schema(description = "Whether members must have a second factor: a member without one keeps the "
                    + "membership but has no member's rights in the organization's namespaces (a 403 that says why) "
                    + "until they set one up, and an admin without one administers nothing of it (the organization, "
                    + "its memberships, applications and webhooks); with one, only a sign-in with it counts (else 401 "
                    + "insufficient_user_authentication). Turning it on or off needs a sign-in with a second factor.")
            Boolean twoFactorRequirementEnabled) {
    }

    /** The body of PUT /organizations/{id}/memberships/{user_id}. */
    @Schema(name = "MembershipInput")
    record MembershipInput(@Schema(required = true, enumeration = {"member", "admin"}) String role) {
    }
}
