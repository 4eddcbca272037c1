package org.ziggurat.platform.data;

/**
 * A field of the input names rows that cannot be used as it asks (another scheme's concept, a
 * reference that would make a cycle), found while writing. Answered 400 naming the field
 * (ProblemMappers).
 */
public class InvalidReference extends RuntimeException {

    private final String field;

    public InvalidReference(String field, String message) {
        super(message, null, false, false);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
