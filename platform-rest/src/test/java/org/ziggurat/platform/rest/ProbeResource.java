package org.ziggurat.platform.rest;

import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.platform.rest.paging.PageLinks;
import org.ziggurat.platform.paging.PageRequest;
import org.ziggurat.platform.permissions.NamespaceAccess;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

import java.time.Instant;
import java.util.Map;
import java.util.TreeSet;

/** Endpoints that exist only in platform-common's tests, to exercise the shared pieces through HTTP. */
@Path("/probe")
@Produces(MediaType.APPLICATION_JSON)
public class ProbeResource {

    @Inject
    Callers callers;

    public record Sample(String name, int count) {
    }

    @GET
    @Path("/whoami")
    public Uni<Map<String, Object>> whoami() {
        return callers.current().map(c -> Map.of(
                "kind", c.isService() ? "service" : c.isUser() ? "user" : "anonymous",
                "user_id", c.userId().map(String::valueOf).orElse(""),
                "username", c.username().orElse(""),
                "scopes", new TreeSet<>(c.scopes()),
                "client_id", c.clientId().orElse(""),
                "service", c.service().orElse(""),
                "second_factor", c.signedInWithSecondFactor()));
    }

    /**
     * A member's rights in an organization that requires a second factor: given to a sign-in
     * with one, refused (RFC 9470 step-up) to the member's sign-in without.
     */
    @GET
    @Path("/strict-organization")
    public Uni<Map<String, Object>> strictOrganization() {
        return callers.current().map(c -> {
            c.requireUser();
            NamespaceAccess.requireRead("lab", c.signedInWithSecondFactor(),
                    NamespaceAccess.Withheld.UNTIL_SIGN_IN_WITH_SECOND_FACTOR);
            return Map.of("read", true);
        });
    }

    @GET
    @Path("/needs-write")
    public Uni<Map<String, Object>> needsWrite() {
        return callers.current().map(c -> Map.of("user_id", c.requireUserWithScope("write")));
    }

    @GET
    @Path("/internal-only")
    public Uni<Map<String, Object>> internalOnly() {
        return callers.current().map(c -> Map.of("service", c.requireService()));
    }

    @POST
    @Path("/large")
    @Consumes(MediaType.WILDCARD)
    public Map<String, Object> large(byte[] body) {
        return Map.of("length", body.length);
    }

    @POST
    @Path("/echo")
    @Consumes(MediaType.APPLICATION_JSON)
    public Sample echo(Sample sample) {
        return sample;
    }

    @GET
    @Path("/conflict")
    public String conflict() {
        throw ProblemException.conflict("That name is taken.");
    }

    @GET
    @Path("/crash")
    public String crash() {
        throw new IllegalStateException("secret internal detail");
    }

    /** How the REST client reports a refused connection to another service. */
    @GET
    @Path("/other-service-refused")
    public Uni<String> otherServiceRefused() {
        return Uni.createFrom().failure(new jakarta.ws.rs.ProcessingException(
                new java.net.ConnectException("Connection refused: /127.0.0.1:8082")));
    }

    /** How the database's client reports a refused connection. */
    @GET
    @Path("/database-refused")
    public Uni<String> databaseRefused() {
        return Uni.createFrom().failure(new java.net.ConnectException("Connection refused: /127.0.0.1:5432"));
    }

    /** Another service answered something unreadable: a defect, not an outage. */
    @GET
    @Path("/other-service-unreadable")
    public Uni<String> otherServiceUnreadable() {
        return Uni.createFrom().failure(new jakarta.ws.rs.ProcessingException(
                new com.fasterxml.jackson.core.JsonParseException(null, "Unexpected character")));
    }

    @GET
    @Path("/slow-dependency")
    public Uni<String> slowDependency() {
        return Uni.createFrom().failure(new RuntimeException("call failed",
                new io.vertx.core.impl.NoStackTraceTimeoutException("The timeout period of 5000ms has been exceeded")));
    }

    @GET
    @Path("/pages")
    public Response pages(@QueryParam("page") String page, @QueryParam("per_page") String perPage, @Context UriInfo uri) {
        PageRequest request = PageRequest.of(page, perPage);
        return PageLinks.withTotal(Response.ok(Map.of("offset", request.offset())), uri, request, 95).build();
    }

    @GET
    @Path("/time")
    public Map<String, Instant> time() {
        return Map.of("at", Instant.parse("2026-01-18T11:03:26.395123456Z"));
    }
}
