package org.ziggurat.platform.http;

import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpVersion;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import org.ziggurat.platform.problem.ProblemRoutes;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How large a request body each route takes, refused before a byte of it is read: before
 * authorization, before any parser. Every route takes {@code ziggurat.http.max-body-size} (1 MiB);
 * the paths that {@code ziggurat.http.large-body-paths} matches (SKOS imports) take
 * {@code ziggurat.http.large-body-size}. A declared {@code Content-Length} past the limit is 413.
 * A chunked body on a route with the small limit is 411 (send a length), since its size is known
 * only once it was read; unless {@code ziggurat.http.read-chunked-bodies} is set, as the gateway
 * sets it: there such a body is read here, counted, 413 as soon as it passes the limit, and
 * otherwise left in {@link #READ_BODY} for the route to send on with its length. Standard clients
 * send chunked bodies (Java's HttpClient with a stream, so the clients generated from the API's
 * description): the public edge takes them. The same in every service and in the gateway, ahead
 * of every other route.
 */
@ApplicationScoped
public class BodyLimits {

    /** Before every other route, the gateway's included. */
    static final int FIRST = Integer.MIN_VALUE + 1000;

    /** Where a chunked body on a small route, read here, is kept for the route (a {@code Buffer}). */
    public static final String READ_BODY = "ziggurat.read-body";

    /** The limits' settings. */
    @ConfigMapping(prefix = "ziggurat.http")
    public interface Settings {

        /** What every route takes. */
        @WithDefault("1M")
        MemorySize maxBodySize();

        /** What the routes of {@link #largeBodyPaths()} take. */
        @WithDefault("128M")
        MemorySize largeBodySize();

        /** Whether a chunked body on a small route is read here, counted as it comes (the gateway's case). */
        @WithDefault("false")
        boolean readChunkedBodies();

        /** A regular expression of the paths that take {@link #largeBodySize()}; none when unset or blank. */
        Optional<String> largeBodyPaths();
    }

    private final ProblemRoutes problems;
    private final long maxBodySize;
    private final long largeBodySize;
    private final boolean readChunkedBodies;
    private final Pattern large;

    BodyLimits(ProblemRoutes problems, Settings settings) {
        this.problems = problems;
        this.maxBodySize = settings.maxBodySize().asLongValue();
        this.largeBodySize = settings.largeBodySize().asLongValue();
        this.readChunkedBodies = settings.readChunkedBodies();
        this.large = settings.largeBodyPaths().filter(p -> !p.isBlank()).map(Pattern::compile).orElse(null);
    }

    void register(@Observes Router router) {
        router.route().order(FIRST).handler(this::check);
    }

    void check(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        String length = request.getHeader("Content-Length");
        String chunked = length == null ? request.getHeader("Transfer-Encoding") : null;
        if (length == null && chunked == null) {
            ctx.next(); // no body (or HTTP/2's frames, which Quarkus's own limit still counts)
            return;
        }
        boolean largeRoute = large != null && large.matcher(ctx.normalizedPath()).matches();
        long limit = largeRoute ? largeBodySize : maxBodySize;
        if (length != null) {
            long declared;
            try {
                declared = Long.parseLong(length.trim());
            } catch (NumberFormatException e) {
                refuse(ctx, 400, "The Content-Length header is not a number.");
                return;
            }
            if (declared > limit) {
                refuse(ctx, 413, "This resource takes request bodies of at most " + limit + " bytes.");
                return;
            }
        } else if (!largeRoute) {
            if (readChunkedBodies) {
                readWithin(ctx, limit);
            } else {
                refuse(ctx, 411, "Send the request body with a Content-Length (at most " + limit + " bytes).");
            }
            return;
        }
        ctx.next();
    }

    /** A chunked body, read and counted: 413 once past {@code limit}, else kept in {@link #READ_BODY}. */
    private void readWithin(RoutingContext ctx, long limit) {
        HttpServerRequest request = ctx.request();
        Buffer body = Buffer.buffer();
        boolean[] refused = {false};
        request.handler(chunk -> {
            if (refused[0]) {
                return;
            }
            if (body.length() + (long) chunk.length() > limit) {
                refused[0] = true;
                refuse(ctx, 413, "This resource takes request bodies of at most " + limit + " bytes.");
                return;
            }
            body.appendBuffer(chunk);
        });
        request.endHandler(ended -> {
            if (!refused[0]) {
                ctx.put(READ_BODY, body);
                ctx.next();
            }
        });
        request.exceptionHandler(failed -> {
            if (!refused[0]) {
                refused[0] = true;
                ctx.fail(400, failed);
            }
        });
        request.resume();
    }

    /** What is read and thrown away of a refused body, at most, so that the client reads the answer. */
    static final long DRAIN_BYTES = 64L * 1024 * 1024;
    static final long DRAIN_MILLIS = 30_000;

    /**
     * The problem, then a lingering close (HTTP/1.x), as nginx does past its body limit: what the
     * client still sends of the body is read and thrown away, up to {@link #DRAIN_BYTES} or
     * {@link #DRAIN_MILLIS}, so that a client that writes the whole body before it reads gets the
     * answer instead of a reset; then the connection closes, and nothing of the body is taken for
     * a next request. Nothing is parsed or kept.
     */
    private void refuse(RoutingContext ctx, int status, String detail) {
        HttpServerRequest request = ctx.request();
        problems.write(ctx, status, detail);
        if (request.version() == HttpVersion.HTTP_2 || request.connection() == null || request.isEnded()) {
            return;
        }
        HttpConnection connection = request.connection();
        long[] drained = {0};
        long timer = ctx.vertx().setTimer(DRAIN_MILLIS, t -> connection.close());
        request.handler(buffer -> {
            drained[0] += buffer.length();
            if (drained[0] > DRAIN_BYTES) {
                ctx.vertx().cancelTimer(timer);
                connection.close();
            }
        });
        request.endHandler(ended -> {
            ctx.vertx().cancelTimer(timer);
            connection.close();
        });
        request.exceptionHandler(failed -> ctx.vertx().cancelTimer(timer));
        request.resume();
    }
}
