package org.ziggurat.directory;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;
import org.ziggurat.platform.rest.problem.ProblemMappers;

/** {@link RetryLater}: the platform's problem document (ProblemMappers), and {@code Retry-After}. */
public class RetryLaterMapper {

    private final ProblemMappers problems = new ProblemMappers();

    @ServerExceptionMapper
    public Response retryLater(RetryLater e, HttpHeaders headers, UriInfo uri) {
        return Response.fromResponse(problems.problem(e, headers, uri)).header("Retry-After", e.seconds()).build();
    }
}
