package org.ziggurat.auth.tokens;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.clients.ApplicationDeleted;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.throughput.NotifiedCache;
import org.ziggurat.platform.database.DatasourceSettings;

import java.time.Instant;
import java.util.Collection;
import java.util.HexFormat;

/**
 * Live access tokens by lookup hash, kept in memory for introspection, which resource servers
 * call on every request they serve. Without it every introspection was a database read, and
 * PostgreSQL alone could not answer as many as the bar asks (bench/README.md).
 *
 * <p>A revoked token must stop at once, on every replica. So an entry is only kept while this
 * replica LISTENs to {@code auth_access_token_changed}: triggers on the token table send to it,
 * at commit, every access token that changes or goes away, by whatever statement (migration V4).
 * How that is kept right is {@link NotifiedCache}'s. What is kept is this class's: live access
 * tokens only, and expiry is checked on every read. Revoked, expired and refresh tokens are never
 * kept. It is also where a presented bearer token is checked, once for every endpoint.
 */
@ApplicationScoped
public class LiveAccessTokens {

    static final String CHANNEL = "auth_access_token_changed";
    private static final HexFormat HEX = HexFormat.of();

    private final TokenRepository tokens;
    private final TokenCrypto crypto;
    private final NotifiedCache<TokenRow> memory;

    private final ResourceServers resources;

    public LiveAccessTokens(AuthConfig config, Vertx vertx, TokenRepository tokens, TokenCrypto crypto,
            ResourceServers resources) {
        this.resources = resources;
        this.tokens = tokens;
        this.crypto = crypto;
        this.memory = new NotifiedCache<>(vertx, CHANNEL, "auth-service-token-listener", config.liveTokenCacheSize(),
                config.liveTokenCacheTtl(), config.liveTokenHeartbeat(), row -> row.isLive(Instant.now()));
    }

    /** Any token by hash, as {@link TokenRepository#byHash} answers, from memory when it may. */
    public Uni<TokenRow> byHash(byte[] hash) {
        return memory.get(HEX.formatHex(hash), () -> tokens.byHash(hash), row -> TokenRules.isBearer(row, Instant.now()));
    }

    /** Any token by its value. */
    public Uni<TokenRow> find(String token) {
        return byHash(crypto.hash(token));
    }

    /**
     * The one check of a presented bearer token ({@link TokenRules#isBearer}): its row when it is
     * a live access token meant for the platform's API (RFC 8707) and not bound to a DPoP key
     * (RFC 9449 §7.1: a bound token is no bearer token), null otherwise.
     */
    public Uni<TokenRow> bearer(String token) {
        return find(token).map(row -> TokenRules.isBearer(row, Instant.now()) && row.jkt() == null
                && resources.forPlatform(row.audience()) ? row : null);
    }

    /**
     * A presented DPoP token (RFC 9449 §7.1): its row when it is a live access token meant for the
     * platform's API and bound to a key (whose proof the caller then checks), null otherwise.
     */
    public Uni<TokenRow> dpopBound(String token) {
        return find(token).map(row -> TokenRules.isBearer(row, Instant.now()) && row.jkt() != null
                && resources.forPlatform(row.audience()) ? row : null);
    }

    /** How the revocation feed names this token ({@link AccessTokenChanges#reference}). */
    public String revocationReference(String token) {
        return AccessTokenChanges.reference(crypto.hash(token));
    }

    /** After a change made through this replica, before it is answered. */
    public void forget(Collection<byte[]> hashes) {
        memory.forget(hashes.stream().map(HEX::formatHex).toList());
    }

    /** After a change whose tokens are not known one by one. */
    public void forgetAll() {
        memory.forgetAll();
    }

    /**
     * Its tokens go with a deleted application, unknown one by one: those kept are recognized by
     * their application. Not everything: any application owner could otherwise empty this
     * replica's memory at will, with an application created and deleted.
     */
    void applicationDeleted(@Observes ApplicationDeleted deleted) {
        memory.forgetIf(row -> Long.valueOf(deleted.applicationId()).equals(row.applicationId()));
    }

    /** Whether memory is read and written now (tests). */
    boolean listening() {
        return memory.usable();
    }

    /** How many tokens are kept (tests). */
    long size() {
        return memory.size();
    }

    void start(@Observes StartupEvent event) {
        memory.start(DatasourceSettings.current());
    }

    void stop(@Observes ShutdownEvent event) {
        memory.stop();
    }
}
