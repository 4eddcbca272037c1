package org.ziggurat.auth.tokens;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.MultiEmitter;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.platform.database.DatasourceSettings;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.rest.listen.ListenConnection;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The revocation feed: what this replica hears on {@code auth_access_token_changed} (migration V4:
 * at commit, every access token that was revoked, deleted or otherwise changed), relayed to the
 * gateway replicas that follow it, so that each forgets its kept introspection answers of those
 * tokens within a second. Every replica hears every notification, so a gateway may follow any one.
 *
 * <p>Tokens are named by their {@link #reference}, which the gateway's introspection answers carry
 * too. A heartbeat every {@code live-token-heartbeat} tells a follower the feed is alive; it is sent
 * only while this replica's LISTEN connection has proved itself. When that connection is lost the
 * followers' streams end (what is notified meanwhile is lost, and they must know it), and no new
 * one starts until it listens again.
 */
@ApplicationScoped
public class AccessTokenChanges {

    /** A change: the references of the tokens, comma-separated, or {@code *} for all of them. */
    public static final String CHANGED = "changed";
    public static final String HEARTBEAT = "heartbeat";
    /** The first event of a stream: from here on every change is relayed. */
    public static final String READY = "ready";
    /** Hex digits of the keyed hash that name a token in the feed: 64 bits, never the lookup key itself. */
    static final int REFERENCE_HEX_DIGITS = 16;
    /** Events a slow follower may be behind before its stream fails (it then reconnects and forgets all). */
    private static final int FOLLOWER_BUFFER = 10_000;
    private static final HexFormat HEX = HexFormat.of();

    /** One event of the feed. */
    public record Event(String name, String data) {
    }

    private final Vertx vertx;
    private final long heartbeatMillis;
    private final ListenConnection connection;
    private final Set<MultiEmitter<? super Event>> followers = ConcurrentHashMap.newKeySet();
    private long heartbeatTimer = -1;
    /**
     * Ends the streams as soon as the process is told to stop (SIGTERM), before the shutdown's wait
     * for requests in flight: an open stream would hold it for its whole timeout, and its gateway
     * had better follow another replica at once.
     */
    private final Thread endOnStop = new Thread(this::closing, "revocation-feed-stop");
    private volatile boolean closing;

    AccessTokenChanges(AuthConfig config, Vertx vertx) {
        this.vertx = vertx;
        this.heartbeatMillis = config.liveTokenHeartbeat().toMillis();
        this.connection = new ListenConnection(vertx, "auth-service-revocation-feed", config.liveTokenHeartbeat(),
                new Relay());
        connection.listen(LiveAccessTokens.CHANNEL);
    }

    /** How the feed and the gateway's introspection answers name a token: the start of its keyed hash, in hex. */
    public static String reference(byte[] hash) {
        return HEX.formatHex(hash, 0, REFERENCE_HEX_DIGITS / 2);
    }

    /** A follower's stream: {@link #READY}, then every change heard and a heartbeat, until the connection is lost. */
    public Multi<Event> follow() {
        if (closing || !connection.proven()) {
            throw ProblemException.busy("The revocation feed is not listening yet; try again.");
        }
        return Multi.createFrom().<Event>emitter(follower -> {
            followers.add(follower);
            follower.onTermination(() -> followers.remove(follower));
            follower.emit(new Event(READY, ""));
        }, FOLLOWER_BUFFER);
    }

    /** Followers now (tests, metrics). */
    public int followers() {
        return followers.size();
    }

    /** Synchronized: notifications and heartbeats come from different event loops, and one follower takes one at a time. */
    private synchronized void relay(Event event) {
        followers.forEach(follower -> follower.emit(event));
    }

    /** A payload of V4's triggers (lookup hashes in hex, or {@code *}) in references. */
    static String references(String payload) {
        if (payload.equals("*")) {
            return payload;
        }
        return Arrays.stream(payload.split(",")).filter(hash -> hash.length() >= REFERENCE_HEX_DIGITS)
                .map(hash -> hash.substring(0, REFERENCE_HEX_DIGITS)).collect(Collectors.joining(","));
    }

    private synchronized void endAll() {
        if (!followers.isEmpty()) {
            followers.forEach(MultiEmitter::complete);
            followers.clear();
        }
    }

    private void closing() {
        closing = true;
        endAll();
    }

    private final class Relay implements ListenConnection.Listener {

        @Override
        public void heard(String channel, String payload) {
            if (LiveAccessTokens.CHANNEL.equals(channel)) {
                relay(new Event(CHANGED, references(payload)));
            }
        }

        @Override
        public void listening() {
            // New followers may start; those that were following were ended when it was lost.
        }

        @Override
        public void lost() {
            endAll();
        }
    }

    void start(@Observes StartupEvent event) {
        connection.start(DatasourceSettings.current());
        Runtime.getRuntime().addShutdownHook(endOnStop);
        heartbeatTimer = vertx.setPeriodic(heartbeatMillis, t -> {
            if (connection.proven()) {
                relay(new Event(HEARTBEAT, ""));
            } else {
                // Silent past its proof, the connection may have missed notifications before it is
                // closed as lost: the followers learn it now rather than from their own silence.
                endAll();
            }
        });
    }

    void stop(@Observes ShutdownEvent event) {
        try {
            Runtime.getRuntime().removeShutdownHook(endOnStop);
        } catch (IllegalStateException stopping) {
            // the process is stopping: the hook ran
        }
        closing();
        if (heartbeatTimer >= 0) {
            vertx.cancelTimer(heartbeatTimer);
        }
        connection.stop();
    }
}
