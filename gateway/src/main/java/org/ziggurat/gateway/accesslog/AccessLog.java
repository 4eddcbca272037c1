package org.ziggurat.gateway.accesslog;

import org.ziggurat.gateway.identity.CallerAddress;

import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.Map;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;
import org.ziggurat.platform.logging.TokenRedaction;

import java.time.Duration;
import java.time.Instant;

/**
 * One line per request on the console, in the console log's format (JSON with the fields under
 * {@code mdc}, or text), written in batches by {@link AccessLogWriter}. The logger
 * {@code org.ziggurat.gateway.access} still switches it: below INFO, nothing is written. The path
 * is logged without its query: a query may hold an access token.
 */
@Singleton // called on every request: no client proxy in between (GatewayProxy)
public class AccessLog {

    public static final String SERVICE = "ziggurat.service";
    static final String LOGGER = "org.ziggurat.gateway.access";
    private static final Logger LOG = Logger.getLogger(LOGGER);

    private final AccessLogWriter writer;

    @Inject
    public AccessLog(@ConfigProperty(name = "quarkus.log.console.json.enabled", defaultValue = "false") boolean json) {
        // System.out, not the file descriptor: a test runner captures the stream it installed there.
        this.writer = new AccessLogWriter(System.out, json, LOGGER, 65_536,
                Duration.ofMillis(20), AccessLog::throughLogger);
    }

    public void log(RoutingContext ctx, String requestId, long startedNanos) {
        if (!LOG.isInfoEnabled()) {
            return;
        }
        long micros = (System.nanoTime() - startedNanos) / 1000;
        String service = ctx.get(SERVICE);
        String client = CallerAddress.of(ctx);
        writer.write(new AccessLogWriter.Entry(Instant.now(), Thread.currentThread().getName(), requestId,
                ctx.request().method().name(), loggedPath(ctx.request().path()), Integer.toString(ctx.response().getStatusCode()),
                millis(micros), service == null ? "-" : service,
                client == null ? "-" : client));
    }

    /**
     * The path as logged: tokens and codes in it (the out-of-band page's {@code /oauth/authorize/zac_…})
     * redacted, also when percent-encoded. This log is written apart from the logging system, so
     * its redaction filter never sees these lines. Queries are never logged.
     */
    static String loggedPath(String path) {
        if (path == null || path.indexOf('_') < 0 && path.indexOf('%') < 0 && !path.contains("eyJ")) {
            return path; // the usual case: nothing token-shaped can be in it
        }
        String redacted = TokenRedaction.redact(path);
        if (path.indexOf('%') >= 0) {
            String decoded = QueryStringDecoder.decodeComponent(path);
            String decodedRedacted = TokenRedaction.redact(decoded);
            if (!decodedRedacted.equals(decoded)) {
                return decodedRedacted;
            }
        }
        return redacted;
    }

    /** When the writer's queue is full: through the logging system, slower but never lost. */
    private static void throughLogger(AccessLogWriter.Entry e) {
        Map<String, String> fields = e.mdc();
        fields.forEach(MDC::put);
        try {
            LOG.info(e.message());
        } finally {
            fields.keySet().forEach(MDC::remove);
        }
    }

    @PreDestroy
    void flush() {
        writer.close();
    }

    /** Microseconds as milliseconds with three decimals, e.g. 1234 as "1.234". */
    static String millis(long micros) {
        String fraction = Long.toString(1000 + micros % 1000).substring(1);
        return (micros / 1000) + "." + fraction;
    }
}
