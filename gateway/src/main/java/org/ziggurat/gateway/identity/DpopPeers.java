package org.ziggurat.gateway.identity;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import org.ziggurat.gateway.GatewayConfig;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The channel between gateway replicas for DPoP proofs: each listens on its peer port
 * ({@code ziggurat.gateway.dpop.peer-port}, never routed publicly) and answers whether a proof made
 * with one of its nonces is used for the first time; a replica that receives a proof with another
 * replica's nonce asks that replica, on a kept connection. Only gateways may ask: the question
 * carries a credential derived from the gateway's client secret.
 */
@Singleton
public class DpopPeers {

    private static final Logger LOG = Logger.getLogger(DpopPeers.class);
    static final String PATH = "/dpop-proofs/first-use";
    /** How long an asking replica keeps an idle connection to another. */
    static final int KEPT_SECONDS = 60;
    /**
     * The longest question read: the epoch, the issue time, a thumbprint and a jti from a proof of
     * {@link DpopProofs#MAX_PROOF} characters, each of whose characters JSON may write as six (a control character).
     */
    static final int MAX_QUESTION = 6 * DpopProofs.MAX_PROOF + 512;

    private final DpopNonces nonces;
    private final GatewayConfig.Dpop config;
    private final String httpHost;
    private final String credential;
    private HttpServer server;
    private HttpClient client;

    DpopPeers(DpopNonces nonces, GatewayConfig config,
            @ConfigProperty(name = "quarkus.http.host", defaultValue = "0.0.0.0") String httpHost) {
        this.nonces = nonces;
        this.config = config.dpop();
        this.httpHost = httpHost;
        this.credential = "Gateway " + nonces.peerCredential();
    }

    void start(@Observes StartupEvent started, Vertx vertx) throws Exception {
        client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setMaxPoolSize(16)
                .setKeepAliveTimeout(KEPT_SECONDS).setConnectTimeout((int) config.peerTimeout().toMillis()));
        // Connections idle for longer than the askers keep theirs are closed: none is cut under a
        // question, and no half-open or silent connection is held for ever.
        server = vertx.createHttpServer(new HttpServerOptions().setIdleTimeout(2 * KEPT_SECONDS)
                .setIdleTimeoutUnit(TimeUnit.SECONDS)).requestHandler(this::answer);
        // On the address the nonces name when it is set, not the public API's: with one replica the
        // launcher's API host may be 0.0.0.0 (ZIGGURAT_GATEWAY_HOST), and the peer port stays on loopback.
        int port = server.listen(config.peerPort(), config.peerHost().orElse(httpHost)).toCompletionStage()
                .toCompletableFuture().get(30, TimeUnit.SECONDS).actualPort();
        String host = config.peerHost().orElseGet(this::defaultHost);
        nonces.issueAs(host + ":" + port);
        LOG.infof("DPoP nonces issued as %s:%d (the other gateways ask here)", host, port);
    }

    void stop(@Observes ShutdownEvent stopped) {
        if (server != null) {
            server.close();
        }
    }

    private String defaultHost() {
        if (!httpHost.equals("0.0.0.0") && !httpHost.equals("::")) {
            return httpHost;
        }
        try {
            return InetAddress.getLocalHost().getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException("set ziggurat.gateway.dpop.peer-host: this machine's address is unknown", e);
        }
    }

    /**
     * A question from another gateway: 201 first use, 409 a replay, 410 not a nonce of this run (or
     * expired), 401 not a gateway, 400 not a question, 413 a body without a length or too long.
     */
    private void answer(HttpServerRequest request) {
        String authorization = request.getHeader("Authorization");
        if (request.method() != HttpMethod.POST || !PATH.equals(request.path())) {
            request.response().setStatusCode(404).end();
            return;
        }
        if (authorization == null || !MessageDigest.isEqual(authorization.getBytes(StandardCharsets.UTF_8),
                credential.getBytes(StandardCharsets.UTF_8))) {
            request.response().setStatusCode(401).end();
            return;
        }
        // A question is a few hundred bytes (a jti within a 4 KB proof): a body is read whole only when
        // its announced length is within MAX_QUESTION, never for as long as the sender streams it.
        String length = request.getHeader("Content-Length");
        if (length == null || !length.matches("[0-9]{1,5}") || Integer.parseInt(length) > MAX_QUESTION) {
            request.response().setStatusCode(413).end();
            return;
        }
        request.body().onSuccess(body -> {
            int status;
            try {
                JsonObject question = body.toJsonObject();
                Long epoch = question.getLong("epoch");
                Long issuedAt = question.getLong("issued_at");
                // getString would write an object or a number as a string: a question's strings are strings.
                String jkt = question.getValue("jkt") instanceof String string ? string : null;
                String jti = question.getValue("jti") instanceof String string ? string : null;
                if (epoch == null || issuedAt == null || jkt == null || jti == null) {
                    status = 400; // not a question (every part is read before any is used)
                } else {
                    Boolean first = nonces.firstUse(epoch, issuedAt, jkt, jti);
                    status = first == null ? 410 : first ? 201 : 409;
                }
            } catch (RuntimeException e) {
                status = 400;
            }
            request.response().setStatusCode(status).end();
        });
    }

    /**
     * Whether the proof of {@code jti} by the key {@code jkt}, made with the nonce of another
     * replica, is used for the first time: asked of that replica. A failure when it cannot say
     * (gone, restarted elsewhere, unreachable): the nonce is then refused, never the proof accepted.
     */
    public Uni<Boolean> firstUseAt(DpopNonces.Nonce nonce, String jkt, String jti) {
        int colon = nonce.issuer().lastIndexOf(':');
        String body = new JsonObject().put("epoch", nonce.epoch()).put("issued_at", nonce.issuedAt()).put("jkt", jkt)
                .put("jti", jti).encode();
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost(nonce.issuer().substring(0, colon))
                .setPort(Integer.parseInt(nonce.issuer().substring(colon + 1))).setURI(PATH)
                .setTimeout(config.peerTimeout().toMillis()).putHeader("Authorization", credential)
                .putHeader("Content-Type", "application/json");
        return Uni.createFrom().completionStage(() -> client.request(options)
                .compose(request -> request.send(body))
                // The answer read to its end, so that the connection serves the next question.
                .compose(answer -> answer.body().map(ignored -> answer.statusCode())).map(status -> switch (status) {
                    case 201 -> true;
                    case 409 -> false;
                    default -> throw new IllegalStateException("gateway " + nonce.issuer() + " answered " + status);
                }).toCompletionStage());
    }
}
