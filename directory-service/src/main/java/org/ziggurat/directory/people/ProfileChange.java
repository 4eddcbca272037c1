package org.ziggurat.directory.people;

import com.fasterxml.jackson.databind.JsonNode;
import org.ziggurat.platform.input.FieldChecks;

/**
 * PATCH /user, read at the HTTP edge: {@code display_name} and {@code email} (the public address;
 * null removes it), each changed only when the body names it.
 */
public record ProfileChange(String displayName, boolean setEmail, String email) {

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
        String email = null;
        if (setEmail) {
            JsonNode node = body.get("email");
            if (!node.isNull()) {
                if (!node.isTextual()) {
                    errors.add("email", "must be a string or null");
                } else {
                    email = node.asText().strip();
                    ProfileRules.email("email", email, errors);
                }
            }
        }
        errors.throwIfFailed("The profile change is not valid.");
        return new ProfileChange(displayName, setEmail, email);
    }
}
