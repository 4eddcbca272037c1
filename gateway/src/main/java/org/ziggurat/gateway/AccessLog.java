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
        String method = ctx.request().method().name();
        String path = ctx.request().path();
        String status = Integer.toString(ctx.response().getStatusCode());
        String millis = millis(micros);
        MDC.put("request_id", requestId);
        MDC.put("method", method);
        MDC.put("path", path);
        MDC.put("status", status);
        MDC.put("duration_ms", millis);
        MDC.put("service", service == null ? "-" : service);
        MDC.put("client", ctx.request().remoteAddress() == null ? "-" : ctx.request().remoteAddress().hostAddress());
        try {
            // Built by hand: String.format's parsing was a sixth of this method's time per request.
            LOG.info(method + ' ' + path + ' ' + status + ' ' + millis + "ms");
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

    /** Microseconds as milliseconds with three decimals, e.g. 1234 as "1.234". */
    static String millis(long micros) {
        String fraction = Long.toString(1000 + micros % 1000).substring(1);
        return (micros / 1000) + "." + fraction;
    }
}
