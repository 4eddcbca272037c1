package org.ziggurat.auth.grants;

import org.ziggurat.platform.problem.ProblemException;

/** Numeric ids in paths; anything else names nothing (404). */
final class Ids {

    private Ids() {
    }

    static long parse(String raw, String what) {
        if (raw != null && raw.matches("[1-9][0-9]{0,17}")) {
            return Long.parseLong(raw);
        }
        throw ProblemException.notFound("No " + what + " has id '" + raw + "'.");
    }
}
