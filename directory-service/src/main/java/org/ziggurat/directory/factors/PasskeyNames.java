package org.ziggurat.directory.factors;

import org.ziggurat.platform.problem.ProblemException;

/** A passkey's name, as its owner gives it to tell several apart: 1 to 64 characters, no control characters. */
final class PasskeyNames {

    static final int MAX = 64;

    private PasskeyNames() {
    }

    static String checked(String name) {
        String stripped = name == null ? "" : name.strip();
        if (stripped.isEmpty() || stripped.length() > MAX || stripped.chars().anyMatch(Character::isISOControl)) {
            throw ProblemException.invalidField("name", "must be 1 to " + MAX + " characters, without control characters");
        }
        return stripped;
    }
}
