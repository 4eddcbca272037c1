package org.ziggurat.gateway;

import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * One line per request, its fields in the MDC so that the JSON log format carries them as
 * fields. The path is logged without its query: a query may hold an access token.
 */
@ApplicationScoped
public class AccessLog {

    static final String SERVICE = "ziggurat.service";
    private static final Logger LOG = Logger.getLogger("org.ziggurat.gateway.access");

    public void log(RoutingContext ctx, String requestId, long startedNanos) {
        if (!LOG.isInfoEnabled()) {
            return;
        }
        long micros = (System.nanoTime() - startedNanos) / 1000;
        String service = ctx.get(SERVICE);
        MDC.put("request_id", requestId);
        MDC.put("method", ctx.request().method().name());
        MDC.put("path", ctx.request().path());
        MDC.put("status", Integer.toString(ctx.response().getStatusCode()));
        MDC.put("duration_ms", String.format("%.3f", micros / 1000.0));
        MDC.put("service", service == null ? "-" : service);
        MDC.put("client", ctx.request().remoteAddress() == null ? "-" : ctx.request().remoteAddress().hostAddress());
        try {
            LOG.infof("%s %s %d %.1fms", ctx.request().method().name(), ctx.request().path(),
                    ctx.response().getStatusCode(), micros / 1000.0);
        } finally {
            MDC.remove("request_id");
            MDC.remove("method");
            MDC.remove("path");
            MDC.remove("status");
            MDC.remove("duration_ms");
            MDC.remove("service");
            MDC.remove("client");
        }
    }
}
