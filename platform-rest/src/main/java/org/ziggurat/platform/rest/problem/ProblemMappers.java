package org.ziggurat.platform.rest.problem;

import org.ziggurat.platform.problem.HttpStatusTitles;
import org.ziggurat.platform.problem.Problem;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.problem.StepUpRequired;

import org.ziggurat.platform.data.InvalidReference;
import org.ziggurat.platform.data.RowMissing;
import org.ziggurat.platform.data.ValueTaken;
import io.vertx.sqlclient.DatabaseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;
import org.ziggurat.platform.logging.RequestIds;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The one place where exceptions become HTTP answers: every error leaves as
 * {@code application/problem+json}. Client errors carry what went wrong; anything unexpected is
 * logged with the request id and answered as a bare 500 that names no class and shows no trace.
 */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @ServerExceptionMapper
    public Response problem(ProblemException e, HttpHeaders headers, UriInfo uri) {
        if (e.status() == 503) {
            return retryShortly(e.detail(), headers, uri);
        }
        if (e.status() == 401) {
            // RFC 6750 §3: a 401 says how to authenticate; a step-up (RFC 9470) says with what sign-in.
            return Response.fromResponse(respond(401, e.title(), e.detail(), e.errors(), headers, uri))
                    .header(HttpHeaders.WWW_AUTHENTICATE, e instanceof StepUpRequired stepUp ? stepUp.challenge() : "Bearer")
                    .build();
        }
        return respond(e.status(), e.title(), e.detail(), e.errors(), headers, uri);
    }

    /** A repository's word for a unique violation. */
    @ServerExceptionMapper
    public Response taken(ValueTaken e, HttpHeaders headers, UriInfo uri) {
        return problem(ProblemException.conflict(e.getMessage()), headers, uri);
    }

    /** A repository's word for a row the work needs that is not there. */
    @ServerExceptionMapper
    public Response missing(RowMissing e, HttpHeaders headers, UriInfo uri) {
        return problem(ProblemException.notFound(e.getMessage()), headers, uri);
    }

    /** A repository's word for input that names rows it cannot use as asked. */
    @ServerExceptionMapper
    public Response invalidReference(InvalidReference e, HttpHeaders headers, UriInfo uri) {
        return problem(ProblemException.invalidField(e.field(), e.getMessage()), headers, uri);
    }

    @ServerExceptionMapper
    public Response unauthorized(UnauthorizedException e, HttpHeaders headers, UriInfo uri) {
        return unauthorizedResponse("Authentication is required.", headers, uri);
    }

    @ServerExceptionMapper
    public Response authenticationFailed(AuthenticationFailedException e, HttpHeaders headers, UriInfo uri) {
        return unauthorizedResponse("The credentials are not valid.", headers, uri);
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e, HttpHeaders headers, UriInfo uri) {
        return respond(403, "Forbidden", "This request is not allowed for the caller.", null, headers, uri);
    }

    /** Jackson's own mapper for this type would answer plain JSON; this one wins by being registered by the application. */
    @ServerExceptionMapper
    public Response mismatchedJson(MismatchedInputException e, HttpHeaders headers, UriInfo uri) {
        return malformedJson(e, headers, uri);
    }

    @ServerExceptionMapper
    public Response malformedJson(JsonProcessingException e, HttpHeaders headers, UriInfo uri) {
        List<Problem.FieldError> errors = null;
        String detail = "The request body is not valid JSON.";
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            String field = jsonPath(mapping.getPath());
            errors = List.of(new Problem.FieldError(field, "has the wrong type or form"));
            detail = "The request body does not have the expected form.";
        }
        return respond(400, "Bad Request", detail, errors, headers, uri);
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e, HttpHeaders headers, UriInfo uri) {
        int status = e.getResponse().getStatus();
        if (status >= 500) {
            return unexpected(e, headers, uri);
        }
        if (e.getCause() instanceof JsonProcessingException json) {
            return malformedJson(json, headers, uri);
        }
        String detail = switch (status) {
            case 404 -> "No resource exists at this address.";
            case 405 -> "This method is not allowed on this resource.";
            case 406 -> "None of the accepted media types can be produced.";
            case 415 -> "This media type is not supported here.";
            default -> "The request could not be processed.";
        };
        Response.ResponseBuilder builder = Response.status(status)
                .type(Problem.MEDIA_TYPE)
                .entity(build(status, HttpStatusTitles.of(status), detail, null, headers, uri));
        // Keep protocol headers such as Allow (405) that the original answer carried.
        e.getResponse().getHeaders().forEach((name, values) -> {
            if (!HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name)) {
                values.forEach(v -> builder.header(name, v));
            }
        });
        return builder.build();
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e, HttpHeaders headers, UriInfo uri) {
        // PostgreSQL's class 22 (data exception): a value the database cannot take, such as a NUL
        // character in text or a number out of range. The request's fault, whichever check missed it.
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DatabaseException db && db.getSqlState() != null
                    && db.getSqlState().startsWith("22")) {
                LOG.debugf("Refused input the database cannot store (SQL state %s) at %s", db.getSqlState(), uri.getPath());
                return respond(400, "Bad Request", "The request holds a value that cannot be stored or searched for, "
                        + "such as a NUL character or a number out of range.", null, headers, uri);
            }
        }
        if (FailureKinds.malformedMultipart(e)) {
            LOG.debugf("Refused a multipart body that does not parse (%s) at %s", e.getMessage(), uri.getPath());
            return respond(400, "Bad Request", "The multipart/form-data body is malformed.", null, headers, uri);
        }
        if (FailureKinds.dependencyUnavailable(e)) {
            LOG.warnf("A service this one needs is not reachable now (%s) for %s", e.getMessage(), uri.getPath());
            return retryShortly("A service this request needs is unavailable for a moment. Try again shortly.", headers, uri);
        }
        if (FailureKinds.databaseAway(e)) {
            LOG.warnf("The database is not reachable now (%s) for %s", e.getMessage(), uri.getPath());
            return retryShortly("The service lost its database for a moment. Try again shortly; an operation that takes an "
                    + "Idempotency-Key is safe to repeat with the same key.", headers, uri);
        }
        if (FailureKinds.dependencyTimedOut(e)) {
            LOG.warnf("A service or query did not answer in time (%s) for %s", e.getMessage(), uri.getPath());
            return retryShortly("A service this request needs did not answer in time. Try again shortly.", headers, uri);
        }
        String requestId = requestId(headers);
        LOG.errorf(e, "Unexpected failure handling %s [request %s]", uri.getPath(), requestId);
        Problem body = new Problem("about:blank", "Internal Server Error", 500,
                "The server failed to handle this request. Quote the request id when reporting it.",
                instance(uri), requestId, null);
        return Response.status(500).type(Problem.MEDIA_TYPE).entity(body).build();
    }

    /** 503 with Retry-After: nothing is wrong with the request, and the same request may be sent again. */
    private static Response retryShortly(String detail, HttpHeaders headers, UriInfo uri) {
        return Response.fromResponse(respond(503, "Service Unavailable", detail, null, headers, uri))
                .header("Retry-After", "2").build();
    }

    private static Response unauthorizedResponse(String detail, HttpHeaders headers, UriInfo uri) {
        return Response.status(401)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                .type(Problem.MEDIA_TYPE)
                .entity(build(401, "Unauthorized", detail, null, headers, uri))
                .build();
    }

    private static Response respond(int status, String title, String detail, List<Problem.FieldError> errors,
            HttpHeaders headers, UriInfo uri) {
        return Response.status(status).type(Problem.MEDIA_TYPE)
                .entity(build(status, title, detail, errors, headers, uri)).build();
    }

    private static Problem build(int status, String title, String detail, List<Problem.FieldError> errors,
            HttpHeaders headers, UriInfo uri) {
        return new Problem("about:blank", title == null ? HttpStatusTitles.of(status) : title, status, detail,
                instance(uri), requestId(headers), errors);
    }

    /**
     * The path the caller used: behind the gateway it carries the public prefix (X-Forwarded-Prefix,
     * e.g. /api), as the gateway's own problems do. The JAX-RS path leaves the prefix out.
     */
    static String instance(UriInfo uri) {
        return uri.getAbsolutePath().getPath();
    }

    private static String requestId(HttpHeaders headers) {
        return RequestIds.acceptOrGenerate(headers.getHeaderString(RequestIds.HEADER));
    }

    private static String jsonPath(List<JsonMappingException.Reference> path) {
        return path.stream()
                .map(ref -> ref.getFieldName() != null ? "." + ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining())
                .replaceFirst("^\\.", "");
    }
}
