package org.ziggurat.platform.data;

/** A row the work needs is not there (never was, or gone meanwhile). Answered 404 with the message (ProblemMappers). */
public class RowMissing extends RuntimeException {

    public RowMissing(String message) {
        super(message, null, false, false);
    }
}
