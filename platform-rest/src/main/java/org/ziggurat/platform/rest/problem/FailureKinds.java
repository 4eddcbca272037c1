package org.ziggurat.platform.rest.problem;

import io.vertx.sqlclient.ClosedConnectionException;
import io.vertx.sqlclient.DatabaseException;
import jakarta.ws.rs.ProcessingException;
import org.ziggurat.platform.problem.DependencyUnavailable;
import org.ziggurat.platform.problem.NetworkFailures;

import java.util.concurrent.TimeoutException;

/**
 * Failures that are nobody's fault in the request: the database away, another service
 * unreachable or too slow. {@link ProblemMappers} answers them 503 with Retry-After, not 500.
 */
public final class FailureKinds {

    private FailureKinds() {
    }


    /**
     * The database went away (restart, failover, network): connection-class SQL states (08...),
     * an operator or crash shutdown (57P...), a closed, refused or reset connection. Nothing is
     * wrong with the request and it may be retried: 503, not 500. (A connection lost during a
     * commit leaves its outcome unknown to us too; that is what Idempotency-Key is for.)
     */
    static boolean databaseAway(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DatabaseException db && db.getSqlState() != null
                    && (db.getSqlState().startsWith("08") || db.getSqlState().startsWith("57P")
                    || db.getSqlState().equals("55000") && String.valueOf(db.getMessage()).contains("accepting connections"))) {
                return true;
            }
            if (connectionFailure(t)) {
                return true;
            }
        }
        return false;
    }


    /**
     * A multipart/form-data body that does not parse (a wrong boundary, a body cut short): the
     * REST layer's parser throws a plain IOException, which {@link NetworkFailures} would take for
     * a broken connection to the database. The request's fault: 400.
     */
    static boolean malformedMultipart(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.io.IOException) {
                for (StackTraceElement frame : t.getStackTrace()) {
                    if (frame.getClassName().startsWith(MULTIPART_PARSER)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static final String MULTIPART_PARSER = "org.jboss.resteasy.reactive.server.core.multipart.";

    /** A connection the database's client closed, or a refused, reset or broken one ({@link NetworkFailures}). */
    static boolean connectionFailure(Throwable t) {
        return t instanceof ClosedConnectionException || NetworkFailures.is(t);
    }


    /**
     * Another service could not be reached or could not serve: {@link DependencyUnavailable}, or a
     * refused, reset or broken connection under the REST client's {@code ProcessingException}
     * (its calls to other services; the database's client never throws one). Checked before
     * {@link #databaseAway}, which would take the connection failure for the database's. A
     * timeout is left to {@link #dependencyTimedOut}; a REST client failure of another kind (an
     * unreadable answer) stays a 500.
     */
    public static boolean dependencyUnavailable(Throwable e) {
        boolean serviceCall = false;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DependencyUnavailable) {
                return true;
            }
            if (t instanceof ProcessingException) {
                serviceCall = true;
            } else if (serviceCall && connectionFailure(t)) {
                return true;
            }
        }
        return false;
    }


    /**
     * A call that timed out: another service's answer (the REST client's read timeout, as when
     * directory-service's password checks queue under a burst of logins) or a bounded wait.
     * Nothing is wrong with the request and it may be retried: 503, not 500.
     */
    static boolean dependencyTimedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof TimeoutException) {
                return true;
            }
        }
        return false;
    }
}
