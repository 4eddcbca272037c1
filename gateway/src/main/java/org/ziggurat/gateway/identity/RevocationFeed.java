package org.ziggurat.gateway.identity;

import org.ziggurat.gateway.GatewayConfig;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.parsetools.RecordParser;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The gateway's one subscription to auth-service's revocation feed (server-sent events at
 * {@code /internal/revocation-feed}, as the gateway's own client, which may introspect): each
 * {@code changed} event makes the kept answers of the tokens it names forgotten, {@code *} all of
 * them. Any auth-service replica will do, since each hears every change.
 *
 * <p>What was notified while the feed was away is lost. So when it is lost (closed, or silent for
 * {@code revocation-feed.silence} though it beats every second) everything kept is forgotten, and
 * answers are reused only briefly until it is back ({@link FeedState}); when it is back (its
 * {@code ready} event) everything is forgotten again. It is opened again with a growing pause
 * (0.1 s, doubling up to 5 s), reset once it is ready.
 */
@Singleton
public class RevocationFeed {

    static final String PATH = "/internal/revocation-feed";
    private static final Logger LOG = Logger.getLogger(RevocationFeed.class);
    private static final long FIRST_PAUSE_MILLIS = 100;
    private static final long LONGEST_PAUSE_MILLIS = 5000;

    private final Vertx vertx;
    private final Identities identities;
    private final FeedState state;
    private final URI auth;
    private final String authorization;
    private final long silenceMillis;
    private final java.time.Duration unprovenReuse;
    private HttpClient client;
    private long pauseMillis = FIRST_PAUSE_MILLIS;
    private long watchdog = -1;
    private volatile HttpClientResponse current;
    private volatile boolean stopped;
    /** Whether the last attempt's failure was logged as a warning (the next ones, until it works, at debug). */
    private boolean warned;

    public RevocationFeed(Vertx vertx, GatewayConfig config, Identities identities, FeedState state, MeterRegistry metrics,
            @ConfigProperty(name = "quarkus.oidc.client-id") String clientId) {
        this.vertx = vertx;
        this.identities = identities;
        this.state = state;
        this.auth = config.upstreams().get("auth-service");
        this.authorization = "Basic " + Base64.getEncoder().encodeToString(
                (clientId + ":" + config.clientSecret().orElse("")).getBytes(StandardCharsets.UTF_8));
        this.silenceMillis = config.revocationFeed().silence().toMillis();
        this.unprovenReuse = config.revocationFeed().unprovenReuse();
        Gauge.builder("ziggurat.gateway.revocation.feed.up", state, s -> s.up() ? 1 : 0)
                .description("1 while the revocation feed from auth-service is open and heard from, else 0")
                .register(metrics);
    }

    void start(@Observes StartupEvent event) {
        client = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout((int) silenceMillis)
                .setMaxPoolSize(1).setKeepAlive(false));
        // Silence decides that the feed is lost: the connection is then closed and opened again.
        watchdog = vertx.setPeriodic(Math.max(50, silenceMillis / 4), t -> {
            state.prune();
            HttpClientResponse open = current;
            if (open != null && !state.up()) {
                LOG.warnf("the revocation feed stayed silent for %d ms: opening it again", silenceMillis);
                open.request().connection().close();
            }
        });
        connect();
    }

    void stop(@Observes ShutdownEvent event) {
        stopped = true;
        if (watchdog >= 0) {
            vertx.cancelTimer(watchdog);
        }
        HttpClientResponse open = current;
        if (open != null) {
            open.request().connection().close();
        }
    }

    private void connect() {
        if (stopped || auth == null) {
            return;
        }
        int port = auth.getPort() > 0 ? auth.getPort() : "https".equals(auth.getScheme()) ? 443 : 80;
        RequestOptions request = new RequestOptions().setMethod(HttpMethod.GET).setHost(auth.getHost()).setPort(port)
                .setSsl("https".equals(auth.getScheme())).setURI(PATH).setIdleTimeout(silenceMillis)
                .putHeader("Authorization", authorization).putHeader("Accept", "text/event-stream");
        client.request(request).compose(req -> req.send()).onSuccess(response -> {
            if (response.statusCode() != 200) {
                response.body().onComplete(body -> retry("answered " + response.statusCode()));
                return;
            }
            follow(response);
        }).onFailure(e -> retry(e.toString()));
    }

    private void follow(HttpClientResponse response) {
        current = response;
        EventReader reader = new EventReader();
        response.handler(RecordParser.newDelimited("\n", reader::line));
        response.exceptionHandler(e -> LOG.debugf("the revocation feed failed: %s", e));
        response.endHandler(v -> lost(response, "ended"));
        response.request().connection().closeHandler(v -> lost(response, "closed"));
    }

    /** One event of the feed. */
    private void heard(String name, String data) {
        state.heard();
        switch (name) {
            case "ready" -> {
                identities.forgetAll();
                state.opened();
                pauseMillis = FIRST_PAUSE_MILLIS;
                if (warned) {
                    LOG.info("the revocation feed is back");
                    warned = false;
                }
            }
            case "changed" -> {
                if (data.equals("*")) {
                    identities.forgetAll();
                } else if (!data.isEmpty()) {
                    identities.forget(Arrays.asList(data.split(",")));
                }
            }
            default -> {
                // heartbeat, or an event a newer auth-service sends: proof of life alone
            }
        }
    }

    private void lost(HttpClientResponse response, String how) {
        if (current != response) {
            return;
        }
        current = null;
        state.closed();
        identities.forgetAll();
        retry("the stream " + how);
    }

    private void retry(String why) {
        if (stopped) {
            return;
        }
        if (!warned) {
            LOG.warnf("the revocation feed is lost (%s): introspection answers are reused for %d ms at most until it is back",
                    why, unprovenReuse.toMillis());
            warned = true;
        } else {
            LOG.debugf("the revocation feed is still lost (%s)", why);
        }
        long pause = pauseMillis / 2 + ThreadLocalRandom.current().nextLong(pauseMillis / 2 + 1);
        pauseMillis = Math.min(LONGEST_PAUSE_MILLIS, pauseMillis * 2);
        vertx.setTimer(pause, t -> connect());
    }

    /** Server-sent events, line by line: {@code event:} and {@code data:} fields, an empty line ends one. */
    private final class EventReader {

        private String name;
        private final StringBuilder data = new StringBuilder();

        void line(Buffer buffer) {
            String line = buffer.toString(StandardCharsets.UTF_8);
            if (line.endsWith("\r")) {
                line = line.substring(0, line.length() - 1);
            }
            if (line.isEmpty()) {
                if (name != null) {
                    heard(name, data.toString());
                }
                name = null;
                data.setLength(0);
            } else if (line.startsWith("event:")) {
                name = line.substring(6).trim();
            } else if (line.startsWith("data:")) {
                data.append(line.substring(5).trim());
            }
        }
    }
}
