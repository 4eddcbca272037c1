package org.ziggurat.directory.organizations;

import com.fasterxml.jackson.databind.JsonNode;
import org.ziggurat.directory.people.Names;
import org.ziggurat.directory.people.ProfileRules;
import org.ziggurat.platform.input.FieldChecks;

import java.util.List;

/**
 * An organization's fields as a create or a change gives them, read at the HTTP edge; null where
 * left out. A body that is not valid is refused with every problem at once.
 */
public record OrganizationFields(String name, String displayName, String visibility, Boolean twoFactorRequired) {

    static final List<String> VISIBILITIES = List.of("public", "private");
    static final String TWO_FACTOR_REQUIRED = "two_factor_requirement_enabled";

    /** POST /organizations: a name (also the namespace), and optionally a display name and visibility. */
    public static OrganizationFields forCreate(JsonNode body) {
        FieldChecks.object(body);
        FieldChecks errors = new FieldChecks();
        String name = text(body, "name", errors);
        // Left out or null alike: "is required" (a null name once reached the database: a 500).
        // A name that is no string has its error already.
        JsonNode given = body.get("name");
        if (given == null || given.isNull() || given.isTextual()) {
            String problem = Names.problem(name);
            if (problem != null) {
                errors.add("name", problem);
            }
        }
        String displayName = text(body, "display_name", errors);
        ProfileRules.displayName(displayName, errors);
        String visibility = errors.oneOf(body.get("visibility"), "visibility", VISIBILITIES, null);
        errors.throwIfFailed("The organization is not valid.");
        return new OrganizationFields(name, displayName == null ? name : displayName.strip(),
                visibility == null ? "public" : visibility, null);
    }

    /**
     * PATCH /organizations/{id}: display name, visibility, and whether members must have a second
     * factor ({@code two_factor_requirement_enabled}); the name never changes.
     */
    public static OrganizationFields forChange(JsonNode body) {
        FieldChecks.object(body);
        FieldChecks errors = new FieldChecks();
        String displayName = text(body, "display_name", errors);
        ProfileRules.displayName(displayName, errors);
        String visibility = errors.oneOf(body.get("visibility"), "visibility", VISIBILITIES, null);
        if (body.has("name")) {
            errors.add("name", "cannot be changed: it is the organization's namespace");
        }
        JsonNode required = body.get(TWO_FACTOR_REQUIRED);
        if (required != null && !required.isNull() && !required.isBoolean()) {
            errors.add(TWO_FACTOR_REQUIRED, "must be true or false");
        }
        errors.throwIfFailed("The change is not valid.");
        return new OrganizationFields(null, displayName == null ? null : displayName.strip(), visibility,
                required == null || !required.isBoolean() ? null : required.asBoolean());
    }

    private static String text(JsonNode body, String field, FieldChecks errors) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            errors.add(field, "must be a string");
            return null;
        }
        return node.asText();
    }
}
