package org.ziggurat.platform.http;

import org.ziggurat.platform.problem.ProblemException;

import java.util.regex.Pattern;

/** Numeric ids in paths: anything that is not one names nothing, so it is a 404 like any unknown id. */
public final class PathIds {

    private static final Pattern ID = Pattern.compile("[1-9][0-9]{0,17}");

    private PathIds() {
    }

    public static long parse(String raw, String what) {
        if (raw != null && ID.matcher(raw).matches()) {
            return Long.parseLong(raw);
        }
        throw ProblemException.notFound("No " + what + " has id '" + raw + "'.");
    }
}
