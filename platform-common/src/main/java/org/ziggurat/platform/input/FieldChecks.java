package org.ziggurat.platform.input;

import com.fasterxml.jackson.databind.JsonNode;
import org.ziggurat.platform.problem.Problem;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.time.Timestamps;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The one way the services check input, with one set of messages. A body's fields are checked
 * into one instance, which collects every problem so that a client learns them all at once (422,
 * {@code errors[]} naming each field); a query parameter is checked alone (400 naming it).
 */
public final class FieldChecks {

    public static final String REQUIRED = "is required";
    public static final String BOOLEAN = "must be true or false";
    private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

    private final List<Problem.FieldError> errors = new ArrayList<>();

    /** The body as a JSON object, or 400: nothing else is a body of fields. */
    public static JsonNode object(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ProblemException.badRequest("A JSON object is required.");
        }
        return body;
    }

    /** A problem of a field that no check here knows. */
    public void add(String field, String message) {
        errors.add(new Problem.FieldError(field, message));
    }

    /** Text of 1 to {@code max} characters, not blank, stripped; null when absent (or wrong). */
    public String text(JsonNode node, String field, int max, boolean required) {
        if (missing(node, field, required)) {
            return null;
        }
        if (!node.isTextual() || node.asText().isBlank() || node.asText().length() > max) {
            add(field, "must be 1 to " + max + " characters");
            return null;
        }
        return node.asText().strip();
    }

    /** A string of 1 to {@code max} characters as given, spaces and all (identifiers); null when absent (or wrong). */
    public String string(JsonNode node, String field, int max, boolean required) {
        if (missing(node, field, required)) {
            return null;
        }
        if (!node.isTextual() || node.asText().isEmpty() || node.asText().length() > max) {
            add(field, "must be 1 to " + max + " characters");
            return null;
        }
        return node.asText();
    }

    /** Like {@link #text}, and one line of printable characters (a name shown in lists and pages). */
    public String line(JsonNode node, String field, int max, boolean required) {
        if (missing(node, field, required)) {
            return null;
        }
        String text = node.isTextual() ? node.asText() : null;
        if (text == null || text.isBlank() || text.length() > max || CONTROL.matcher(text).find()) {
            add(field, "must be 1 to " + max + " printable characters");
            return null;
        }
        return text.strip();
    }

    /** true or false; null when absent (or wrong). */
    public Boolean bool(JsonNode node, String field) {
        if (absent(node)) {
            return null;
        }
        if (!node.isBoolean()) {
            add(field, BOOLEAN);
            return null;
        }
        return node.asBoolean();
    }

    /** One of {@code allowed}, or {@code fallback} (which may be null) when absent. */
    public String oneOf(JsonNode node, String field, Collection<String> allowed, String fallback) {
        if (absent(node)) {
            return fallback;
        }
        if (!node.isTextual() || !allowed.contains(node.asText())) {
            add(field, "must be one of " + String.join(", ", allowed));
            return null;
        }
        return node.asText();
    }

    /** One of {@code allowed}, which must be given. */
    public String requiredOneOf(JsonNode node, String field, Collection<String> allowed) {
        if (absent(node)) {
            add(field, REQUIRED + ": one of " + String.join(", ", allowed));
            return null;
        }
        return oneOf(node, field, allowed, null);
    }

    public boolean failed() {
        return !errors.isEmpty();
    }

    public List<Problem.FieldError> errors() {
        return List.copyOf(errors);
    }

    /** 422 with every problem found, {@code detail} saying what is not valid ("The scheme is not valid."). */
    public void throwIfFailed(String detail) {
        if (!errors.isEmpty()) {
            throw ProblemException.invalid(detail, errors);
        }
    }

    /** Absent: a problem when required. */
    private boolean missing(JsonNode node, String field, boolean required) {
        if (!absent(node)) {
            return false;
        }
        if (required) {
            add(field, REQUIRED);
        }
        return true;
    }

    private static boolean absent(JsonNode node) {
        return node == null || node.isNull() || node.isMissingNode();
    }

    // Query parameters: each is checked alone, as it is read.

    /** An ISO 8601 instant with an offset, in UTC; null when the parameter is absent. */
    public static OffsetDateTime timestamp(String name, String value) {
        if (value == null) {
            return null;
        }
        return Timestamps.parse(value).map(i -> i.atOffset(ZoneOffset.UTC)).orElseThrow(() -> parameter(name,
                name + " must be an ISO 8601 timestamp such as 2026-01-18T11:03:26.395Z.", "must be an ISO 8601 timestamp"));
    }

    /** {@code true} or {@code false}; false when absent. */
    public static boolean flag(String name, String value) {
        if (value == null || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw parameter(name, name + " must be true or false.", BOOLEAN);
    }

    /** One of {@code allowed}, or null when absent. */
    public static String oneOf(String name, String value, Collection<String> allowed) {
        if (value == null || allowed.contains(value)) {
            return value;
        }
        throw parameter(name, name + " must be one of " + String.join(", ", allowed) + ".",
                "must be one of " + String.join(", ", allowed));
    }

    /** 400 naming a query parameter: what is wrong with it, and the rule it broke. */
    public static ProblemException parameter(String name, String detail, String rule) {
        return new ProblemException(400, "Bad Request", detail, List.of(new Problem.FieldError(name, rule)));
    }
}
