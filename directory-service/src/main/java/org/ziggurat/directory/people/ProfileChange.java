package org.ziggurat.directory.people;

import com.fasterxml.jackson.databind.JsonNode;
import org.ziggurat.platform.input.FieldChecks;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * PATCH /user, read at the HTTP edge: {@code display_name}, {@code email} (the public address;
 * null removes it) and the {@link ProfileDetails} (each: null removes it), each changed only when
 * the body names it ({@code detailsNamed}).
 */
public record ProfileChange(String displayName, boolean setEmail, String email, Set<String> detailsNamed,
        ProfileDetails details) {

    public static ProfileChange read(JsonNode body) {
        FieldChecks.object(body);
        FieldChecks errors = new FieldChecks();
        String displayName = null;
        if (body.has("display_name")) {
            JsonNode node = body.get("display_name");
            if (!node.isTextual()) {
                errors.add("display_name", "must be a string");
            } else {
                displayName = node.asText().strip();
                ProfileRules.displayName(displayName, errors);
            }
        }
        boolean setEmail = body.has("email");
        String email = optional(body, "email", errors);
        if (email != null) {
            ProfileRules.email("email", email, errors);
        }
        Set<String> named = new LinkedHashSet<>();
        List<String> values = new ArrayList<>();
        for (String field : ProfileDetails.FIELDS) {
            if (body.has(field)) {
                named.add(field);
            }
            values.add(detail(field, optional(body, field, errors), errors));
        }
        errors.throwIfFailed("The profile change is not valid.");
        return new ProfileChange(displayName, setEmail, email, Set.copyOf(named), ProfileDetails.of(values));
    }

    /** A field that null removes: its text, stripped; null when absent, null, or not a string (a problem then). */
    private static String optional(JsonNode body, String field, FieldChecks errors) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            errors.add(field, "must be a string or null");
            return null;
        }
        return node.asText().strip();
    }

    /** The detail as stored (a locale in its canonical case), after its rule. */
    private static String detail(String field, String value, FieldChecks errors) {
        if (value == null) {
            return null;
        }
        switch (field) {
            case "website" -> ProfileRules.website(value, errors);
            case "locale" -> {
                return ProfileRules.locale(value, errors);
            }
            case "zoneinfo" -> ProfileRules.zoneinfo(value, errors);
            default -> ProfileRules.name(field, value, errors);
        }
        return value;
    }
}
