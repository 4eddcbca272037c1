package org.ziggurat.platform.problem;

import java.util.List;

/**
 * Thrown by services for any client error that should reach the caller as a problem document.
 * The HTTP status comes from the exception, so no resource decides error shapes on its own.
 */
public class ProblemException extends RuntimeException {

    private final int status;
    private final String title;
    private final List<Problem.FieldError> errors;

    public ProblemException(int status, String title, String detail) {
        this(status, title, detail, null);
    }

    public ProblemException(int status, String title, String detail, List<Problem.FieldError> errors) {
        super(detail, null, false, false);
        this.status = status;
        this.title = title;
        this.errors = errors == null ? null : List.copyOf(errors);
    }

    public int status() {
        return status;
    }

    public String title() {
        return title;
    }

    public String detail() {
        return getMessage();
    }

    public List<Problem.FieldError> errors() {
        return errors;
    }

    public static ProblemException badRequest(String detail) {
        return new ProblemException(400, "Bad Request", detail);
    }

    public static ProblemException unauthorized(String detail) {
        return new ProblemException(401, "Unauthorized", detail);
    }

    public static ProblemException forbidden(String detail) {
        return new ProblemException(403, "Forbidden", detail);
    }

    public static ProblemException notFound(String detail) {
        return new ProblemException(404, "Not Found", detail);
    }

    public static ProblemException conflict(String detail) {
        return new ProblemException(409, "Conflict", detail);
    }

    /** 413: the request is larger than this route takes. */
    public static ProblemException tooLarge(String detail) {
        return new ProblemException(413, "Content Too Large", detail);
    }

    /** 503 with Retry-After: the service is busy with work of this kind; the same request may come again. */
    public static ProblemException busy(String detail) {
        return new ProblemException(503, "Service Unavailable", detail);
    }

    public static ProblemException invalid(String detail, List<Problem.FieldError> errors) {
        return new ProblemException(422, "Unprocessable Content", detail, errors);
    }

    public static ProblemException invalidField(String field, String message) {
        return invalid("The request content is not valid.", List.of(new Problem.FieldError(field, message)));
    }
}
