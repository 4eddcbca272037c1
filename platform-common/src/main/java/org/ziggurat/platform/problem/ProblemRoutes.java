package org.ziggurat.platform.problem;

import io.vertx.core.http.HttpVersion;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;
import org.ziggurat.platform.logging.RequestIds;

/**
 * Problem answers for what never reaches a JAX-RS resource: a path no route serves (instead of
 * the HTTP layer's bare 404), and failures raised in the HTTP layer itself (body too large).
 */
@ApplicationScoped
public class ProblemRoutes {

    /** After every route a service or Quarkus registers. */
    static final int LAST = Integer.MAX_VALUE - 1000;

    private static final Logger LOG = Logger.getLogger(ProblemRoutes.class);

    private final ObjectMapper mapper;

    ProblemRoutes(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    void register(@Observes Router router) {
        router.route().order(LAST).handler(ctx -> write(ctx, 404, "No resource exists at this address."));
    }

    /** Writes a problem document as the whole answer. */
    public void write(RoutingContext ctx, int status, String detail) {
        HttpServerResponse response = ctx.response();
        if (response.ended() || response.headWritten()) {
            return;
        }
        String requestId = RequestIds.acceptOrGenerate(ctx.request().getHeader(RequestIds.HEADER));
        Problem problem = new Problem("about:blank", HttpStatusTitles.of(status), status, detail,
                ctx.normalizedPath(), requestId, null);
        String body;
        try {
            body = mapper.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            LOG.error("Cannot serialise a problem document", e);
            body = "{\"status\":" + status + "}";
        }
        if (!ctx.request().isEnded() && ctx.request().version() != HttpVersion.HTTP_2) {
            // Refused before its body was read: the rest of that body must not be taken for the next
            // request on this connection, so the connection ends with this answer, and says so.
            response.putHeader("Connection", "close");
        }
        response.setStatusCode(status)
                .putHeader("Content-Type", Problem.MEDIA_TYPE)
                .putHeader(RequestIds.HEADER, requestId)
                .end(body);
    }
}
