package org.ziggurat.gateway.route;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.streams.ReadStream;

/**
 * A service's answer as the proxy passes it on, which the gateway can end itself: a last buffer,
 * then the end, as if the service had sent them; the service's own answer is then dropped and its
 * connection closed. How an event stream is ended when its caller's token stops being active: the
 * proxy ends the caller's answer cleanly, and nothing more is written to it.
 */
final class EndableStream implements ReadStream<Buffer> {

    private final ReadStream<Buffer> source;
    private Handler<Buffer> handler;
    private Handler<Void> endHandler;
    private boolean finished;

    EndableStream(ReadStream<Buffer> source) {
        this.source = source;
    }

    /** Sends {@code last}, then the end; the service's answer goes no further. On the request's event loop. */
    void finish(Buffer last) {
        if (finished) {
            return;
        }
        finished = true;
        source.handler(null);
        source.endHandler(null);
        if (handler != null) {
            handler.handle(last);
        }
        if (endHandler != null) {
            endHandler.handle(null);
        }
        if (source instanceof HttpClientResponse response && response.request().connection() != null) {
            response.request().connection().close();
        }
    }

    @Override
    public ReadStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
        source.exceptionHandler(handler);
        return this;
    }

    @Override
    public ReadStream<Buffer> handler(Handler<Buffer> handler) {
        this.handler = handler;
        if (!finished) {
            source.handler(handler);
        }
        return this;
    }

    @Override
    public ReadStream<Buffer> pause() {
        source.pause();
        return this;
    }

    @Override
    public ReadStream<Buffer> resume() {
        source.resume();
        return this;
    }

    @Override
    public ReadStream<Buffer> fetch(long amount) {
        source.fetch(amount);
        return this;
    }

    @Override
    public ReadStream<Buffer> endHandler(Handler<Void> endHandler) {
        this.endHandler = endHandler;
        if (!finished) {
            source.endHandler(endHandler);
        }
        return this;
    }
}
