package org.ziggurat.directory.client;

import jakarta.ws.rs.core.Response;
import org.ziggurat.platform.problem.DependencyUnavailable;

import java.util.List;

/**
 * What directory-service's answers mean when they are not what was asked for, as the exceptions a
 * call of {@link DirectoryClient} fails with: 401 {@link PasswordRefused}, 429
 * {@link PasswordThrottled}, 404 {@link NotFound}, 409 {@link Conflict}, 410 {@link LinkGone}, 413
 * and 422 {@link Invalid}, 5xx {@code DependencyUnavailable} (a 503 to the caller, who may retry).
 */
public interface DirectoryFailures {

    /** The directory found the request's content invalid (422): a wrong enrolment code, say. */
    class Invalid extends RuntimeException {
        private final List<String> fields;

        public Invalid() {
            this(List.of());
        }

        /** {@code fields}: the fields the problem named, when it named any. */
        public Invalid(List<String> fields) {
            super("invalid", null, false, false);
            this.fields = fields;
        }

        public List<String> fields() {
            return fields;
        }
    }

    /** The directory refused the change as things stand (409). */
    class Conflict extends RuntimeException {
        public Conflict() {
            this(null);
        }

        /** {@code detail}: the problem's detail, when the directory gave one (null otherwise). */
        public Conflict(String detail) {
            super(detail == null ? "conflict" : detail, null, false, false);
        }

        public String detail() {
            return "conflict".equals(getMessage()) ? null : getMessage();
        }
    }

    /** The directory refused the password (401). */
    class PasswordRefused extends RuntimeException {
        public PasswordRefused() {
            super("refused", null, false, false);
        }
    }

    /** The directory throttles this account or address (429). */
    class PasswordThrottled extends RuntimeException {
        private final long retryAfter;

        public PasswordThrottled(long retryAfter) {
            super("throttled", null, false, false);
            this.retryAfter = retryAfter;
        }

        public long retryAfter() {
            return retryAfter;
        }
    }

    /** The directory answered 410: a mailed link that was used, expired, or is not one of its. */
    class LinkGone extends RuntimeException {
        public LinkGone() {
            super("gone", null, false, false);
        }
    }

    /** The directory answered 404: the person, organization or link does not exist. */
    class NotFound extends RuntimeException {
        public NotFound() {
            super("not found", null, false, false);
        }
    }

    /** A problem's detail, if the body is one. */
    private static String problemDetail(Response response) {
        try {
            String body = response.readEntity(String.class);
            return body == null ? null : new com.fasterxml.jackson.databind.ObjectMapper().readTree(body).path("detail").asText(null);
        } catch (RuntimeException | com.fasterxml.jackson.core.JsonProcessingException notAProblem) {
            return null;
        }
    }

    /** The fields a problem's errors name, if the body is one. */
    private static List<String> problemFields(Response response) {
        try {
            String body = response.readEntity(String.class);
            List<String> fields = new java.util.ArrayList<>();
            if (body != null) {
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(body).path("errors")
                        .forEach(error -> fields.add(error.path("field").asText("")));
            }
            return List.copyOf(fields);
        } catch (RuntimeException | com.fasterxml.jackson.core.JsonProcessingException notAProblem) {
            return List.of();
        }
    }

    /** The exception a call fails with, for an answer that is not a success. */
    static RuntimeException of(Response response) {
        if (response.getStatus() == 401) {
            return new PasswordRefused();
        }
        if (response.getStatus() == 429) {
            String retry = response.getHeaderString("Retry-After");
            long seconds = 60;
            try {
                seconds = retry == null ? 60 : Long.parseLong(retry.trim());
            } catch (NumberFormatException e) {
                // keep the default
            }
            return new PasswordThrottled(seconds);
        }
        if (response.getStatus() == 404) {
            return new NotFound();
        }
        if (response.getStatus() == 409) {
            return new Conflict(problemDetail(response));
        }
        if (response.getStatus() == 410) {
            return new LinkGone();
        }
        if (response.getStatus() == 422) {
            return new Invalid(problemFields(response));
        }
        if (response.getStatus() == 413) {
            return new Invalid();
        }
        if (response.getStatus() >= 500) {
            // Its database away, say: a 503 to our caller, who may retry, not a 500.
            return new DependencyUnavailable("directory-service answered " + response.getStatus(), null);
        }
        return new IllegalStateException("directory-service answered " + response.getStatus());
    }
}
