package org.ziggurat.platform.data;

/**
 * A value that must be unique (a name, an email address, a slug) is taken: a repository's word
 * for a unique violation. Answered 409 with the message (ProblemMappers).
 */
public class ValueTaken extends RuntimeException {

    public ValueTaken(String message) {
        super(message, null, false, false);
    }
}
