package org.ziggurat.events.webhooks;

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
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The HTTP exchange of one delivery with its receiver, without blocking a thread: one POST to the
 * address checked, its answer read only so far ({@link #MOST_READ}).
 */
@ApplicationScoped
public class WebhookSender {

    /** An answer is read this far at most (the log keeps {@link WebhookSettings#answerBytes} of it); past it the connection is closed. */
    static final int MOST_READ = 64 * 1024;

    private final WebhookSettings settings;
    private final Vertx vertx;
    private volatile HttpClient client;

    WebhookSender(WebhookSettings settings, Vertx vertx) {
        this.settings = settings;
        this.vertx = vertx;
    }

    /** A receiver's answer: its status and the first bytes of its body (none from a target that is not public). */
    record Answer(int status, String text) {
    }

    /**
     * One POST to the address checked (the host named for TLS and {@code Host}), no redirect
     * followed, the whole exchange within the timeout (then the connection is reset).
     */
    Uni<Answer> send(TargetAddresses.Target target, String id, long timestamp, String signature, byte[] body) {
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST)
                .setServer(SocketAddress.inetSocketAddress(new InetSocketAddress(target.address(), target.port())))
                .setHost(target.host()).setPort(target.port()).setSsl(target.ssl()).setURI(target.requestUri())
                .setFollowRedirects(false).setConnectTimeout(settings.connectTimeout().toMillis())
                .putHeader("content-type", WebhookBodies.CONTENT_TYPE)
                .putHeader("user-agent", "Ziggurat-Webhooks/1")
                .putHeader("webhook-id", id)
                .putHeader("webhook-timestamp", Long.toString(timestamp))
                .putHeader("webhook-signature", signature);
        AtomicReference<HttpClientRequest> sending = new AtomicReference<>();
        Future<Answer> exchange = client().request(options).compose(request -> {
            sending.set(request);
            return request.send(Buffer.buffer(body));
        }).compose(response -> read(response, DeliveryWorker.kept(target, settings.answerBytes())));
        return Uni.createFrom().completionStage(exchange.toCompletionStage())
                .ifNoItem().after(settings.timeout()).failWith(TimeoutException::new)
                .onFailure().invoke(e -> {
                    HttpClientRequest request = sending.get();
                    if (request != null) {
                        request.reset();
                    }
                });
    }

    /** The status and up to {@code keep} bytes of the body; a long answer is cut off. */
    private Future<Answer> read(HttpClientResponse response, int keep) {
        Promise<Answer> answer = Promise.promise();
        Buffer kept = Buffer.buffer();
        AtomicInteger total = new AtomicInteger();
        response.handler(chunk -> {
            if (kept.length() < keep) {
                kept.appendBuffer(chunk.slice(0, Math.min(chunk.length(), keep - kept.length())));
            }
            if (total.addAndGet(chunk.length()) > MOST_READ && answer.tryComplete(answer(response, kept))) {
                response.request().reset();
            }
        });
        response.exceptionHandler(answer::tryFail);
        response.endHandler(v -> answer.tryComplete(answer(response, kept)));
        return answer.future();
    }

    private static Answer answer(HttpClientResponse response, Buffer kept) {
        // Text for the log, never a NUL (PostgreSQL's text refuses it); bytes cut mid-character become U+FFFD.
        String text = new String(kept.getBytes(), StandardCharsets.UTF_8).replace('\u0000', '\uFFFD');
        return new Answer(response.statusCode(), text);
    }

    private HttpClient client() {
        if (client == null) {
            synchronized (this) {
                if (client == null) {
                    // TLS verified against the JDK's trusted authorities, host names checked.
                    client = vertx.createHttpClient(new HttpClientOptions().setVerifyHost(true)
                            .setMaxPoolSize(4).setKeepAlive(true).setKeepAliveTimeout(30)
                            .setMaxRedirects(0).setTryUseCompression(false)
                            .setMaxHeaderSize(16 * 1024).setMaxInitialLineLength(8 * 1024));
                }
            }
        }
        return client;
    }

    void close(@Observes ShutdownEvent stop) {
        if (client != null) {
            client.close();
        }
    }
}
