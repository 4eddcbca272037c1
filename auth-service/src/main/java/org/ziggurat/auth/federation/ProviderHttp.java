package org.ziggurat.auth.federation;

import com.nimbusds.jose.util.Resource;
import com.nimbusds.jose.util.ResourceRetriever;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.platform.http.PublicAddresses;
import org.ziggurat.platform.problem.DependencyUnavailable;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URL;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Every call to a provider (discovery, keys, token, user info, GitHub's API), held to the rules of
 * a webhook's receiver ({@link PublicAddresses}): https, no credentials in the URL, every address
 * of the host public unless the operator allowed its network ({@code ziggurat.auth.federation.allowed-networks}),
 * checked before each call and the connection made to the address checked (the host named only for
 * TLS and {@code Host}), so a DNS answer that changes in between reaches nothing else. No redirect
 * is followed, the exchange has the provider timeout, and at most 1 MiB of an answer is read.
 */
@ApplicationScoped
public class ProviderHttp {

    private static final Logger LOG = Logger.getLogger(ProviderHttp.class);
    static final int MOST_READ = 1024 * 1024;

    /** An answer: its status, the headers the SDK reads, and its body as text. */
    public record Reply(int status, String contentType, String wwwAuthenticate, String location, String body) {
    }

    /** Where a URL may be called: the URL, its host and port, and the address checked. */
    record Target(URI url, String host, int port, boolean ssl, InetAddress address) {
        String requestUri() {
            String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
            return url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
        }
    }

    /** A provider's URL that the rules refuse: the provider cannot be reached, by rule. */
    public static final class AddressRefused extends DependencyUnavailable {
        AddressRefused(String message) {
            super(message, null);
        }
    }

    private final PublicAddresses rules;
    private final Vertx vertx;
    private final Duration timeout;
    private volatile HttpClient client;

    ProviderHttp(FederationSettings settings, Vertx vertx) {
        this.rules = new PublicAddresses(settings.allowedNetworks().orElse(List.of()));
        this.vertx = vertx;
        this.timeout = settings.timeout();
    }

    /** Why a URL's form may not be a provider's endpoint (credentials, scheme, fragment), or null. */
    static String formFault(String url) {
        return PublicAddresses.formFault(url);
    }

    /** Checks a URL as a call would (its host resolved, every address, off the event loop): why it is refused, or null. */
    public Uni<String> refusal(String url) {
        return Uni.createFrom().completionStage(() -> vertx.executeBlocking(() -> {
            try {
                checkBlocking(url);
                return (String) null;
            } catch (AddressRefused refused) {
                return refused.getMessage();
            }
        }, false).toCompletionStage());
    }

    private Target checkBlocking(String url) {
        String fault = formFault(url);
        if (fault != null) {
            throw new AddressRefused("the URL " + fault);
        }
        URI uri = URI.create(url);
        String host = PublicAddresses.host(uri);
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new AddressRefused("the host " + host + " does not resolve");
        }
        String refusal = rules.refusal(uri, addresses);
        if (refusal != null) {
            throw new AddressRefused(refusal);
        }
        boolean ssl = "https".equalsIgnoreCase(uri.getScheme());
        return new Target(uri, host, uri.getPort() != -1 ? uri.getPort() : ssl ? 443 : 80, ssl, addresses[0]);
    }

    /** One call, checked first (the resolution off the event loop); fails with {@link AddressRefused} or DependencyUnavailable. */
    public Uni<Reply> send(String method, String url, Map<String, String> headers, String body) {
        return Uni.createFrom().completionStage(() -> vertx.executeBlocking(() -> checkBlocking(url), false).toCompletionStage())
                .onFailure(e -> !(e instanceof AddressRefused)).transform(e -> new DependencyUnavailable(
                        "the provider's address cannot be checked", e))
                .chain(target -> exchange(target, method, headers, body))
                .onFailure(AddressRefused.class).invoke(e -> LOG.warnf("a call to a provider was refused: %s", e.getMessage()));
    }

    /**
     * The same, on a worker thread (the OpenID Connect SDK's code is blocking). The address is
     * checked on this thread: handing it to another worker and waiting for it would hold one worker
     * per call waiting for a second, and enough sign-ins at once would wait on each other until their
     * timeouts (no worker left to do the checks).
     */
    public Reply sendBlocking(String method, String url, Map<String, String> headers, String body) {
        Target target;
        try {
            target = checkBlocking(url);
        } catch (AddressRefused e) {
            LOG.warnf("a call to a provider was refused: %s", e.getMessage());
            throw e;
        } catch (RuntimeException e) {
            throw new DependencyUnavailable("the provider's address cannot be checked", e);
        }
        return exchange(target, method, headers, body).await().atMost(timeout.plusSeconds(2));
    }

    /** The provider's key set (its jwks_uri), by the same rules: a 200 with a body, else an IOException. */
    public ResourceRetriever keys() {
        return (URL url) -> {
            Reply reply;
            try {
                reply = sendBlocking("GET", url.toString(), Map.of("Accept", "application/json"), null);
            } catch (RuntimeException e) {
                throw new IOException("the provider's keys cannot be had: " + e.getMessage(), e);
            }
            if (reply.status() != 200) {
                throw new IOException("the provider's jwks_uri answered " + reply.status());
            }
            return new Resource(reply.body(), reply.contentType());
        };
    }

    private Uni<Reply> exchange(Target target, String method, Map<String, String> headers, String body) {
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.valueOf(method))
                .setServer(SocketAddress.inetSocketAddress(new InetSocketAddress(target.address(), target.port())))
                .setHost(target.host()).setPort(target.port()).setSsl(target.ssl()).setURI(target.requestUri())
                .setFollowRedirects(false).setConnectTimeout(timeout.toMillis())
                .putHeader("User-Agent", "Ziggurat");
        headers.forEach(options::putHeader);
        AtomicReference<HttpClientRequest> sending = new AtomicReference<>();
        Promise<Reply> reply = Promise.promise();
        // On one event loop from the request to the answer's end: the body's handler is set when its head
        // arrives, before any of it (a caller's worker thread would set it too late for a short answer).
        vertx.getOrCreateContext().runOnContext(start -> client().request(options).compose(request -> {
            sending.set(request);
            return body == null ? request.send() : request.send(Buffer.buffer(body, "UTF-8"));
        }).compose(ProviderHttp::read).onComplete(reply));
        return Uni.createFrom().completionStage(reply.future().toCompletionStage())
                .ifNoItem().after(timeout).failWith(TimeoutException::new)
                .onFailure(e -> !(e instanceof DependencyUnavailable)).transform(e -> {
                    LOG.debugf("a call to the provider at %s failed: %s", target.host(), e.toString());
                    HttpClientRequest request = sending.get();
                    if (request != null) {
                        request.reset();
                    }
                    return new DependencyUnavailable("the provider at " + target.host() + " cannot be reached", e);
                });
    }

    private static Future<Reply> read(HttpClientResponse response) {
        Promise<Reply> reply = Promise.promise();
        Buffer body = Buffer.buffer();
        response.handler(chunk -> {
            if (body.length() + chunk.length() > MOST_READ) {
                if (reply.tryFail(new DependencyUnavailable("the provider's answer is longer than " + MOST_READ + " bytes", null))) {
                    response.request().reset();
                }
                return;
            }
            body.appendBuffer(chunk);
        });
        response.exceptionHandler(reply::tryFail);
        response.endHandler(v -> reply.tryComplete(new Reply(response.statusCode(), response.getHeader("Content-Type"),
                response.getHeader("WWW-Authenticate"), response.getHeader("Location"),
                new String(body.getBytes(), StandardCharsets.UTF_8))));
        return reply.future();
    }

    private HttpClient client() {
        if (client == null) {
            synchronized (this) {
                if (client == null) {
                    // TLS verified against the JDK's trusted authorities, host names checked.
                    client = vertx.createHttpClient(new HttpClientOptions().setVerifyHost(true).setForceSni(true)
                            .setMaxPoolSize(8).setKeepAlive(true).setKeepAliveTimeout(30).setMaxRedirects(0)
                            .setMaxHeaderSize(16 * 1024).setMaxInitialLineLength(8 * 1024));
                }
            }
        }
        return client;
    }

    @PreDestroy
    void close() {
        if (client != null) {
            client.close();
        }
    }
}
