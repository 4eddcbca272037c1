package org.ziggurat.gateway.accesslog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Writes access-log lines in batches from a thread of its own: the event loop only queues an
 * entry. Through the logging system each line would be a record handed to the logging thread (a
 * wake-up), formatted, filtered and written with a system call of its own, for every request.
 * Here the writer wakes every
 * {@code interval}, and everything queued meanwhile is one write.
 *
 * <p>Lines have the shape of the console log's: JSON with the fields in {@code mdc}, as the JSON
 * log format writes them, or the text format's one line. When the queue is full (the output does
 * not keep up) an entry goes to {@code overflow} instead, so no line is lost.
 */
final class AccessLogWriter implements AutoCloseable {

    record Entry(Instant at, String thread, String requestId, String method, String path, String status,
            String durationMs, String service, String client) {
        String message() {
            return method + ' ' + path + ' ' + status + ' ' + durationMs + "ms";
        }

        /** The fields as the log's {@code mdc} carries them, in this order. */
        Map<String, String> mdc() {
            Map<String, String> fields = new LinkedHashMap<>();
            fields.put("request_id", requestId);
            fields.put("method", method);
            fields.put("path", path);
            fields.put("status", status);
            fields.put("duration_ms", durationMs);
            fields.put("service", service);
            fields.put("client", client);
            return fields;
        }
    }

    private static final JsonFactory JSON = new JsonFactory();
    private static final DateTimeFormatter TEXT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS")
            .withZone(ZoneId.systemDefault());
    private static final DateTimeFormatter JSON_TIME = DateTimeFormatter.ISO_OFFSET_DATE_TIME.withZone(ZoneId.systemDefault());

    private final OutputStream out;
    private final boolean json;
    private final String loggerName;
    private final long intervalNanos;
    private final BlockingQueue<Entry> queue;
    private final Consumer<Entry> overflow;
    private final Thread thread;
    private final String hostName;
    private final long processId = ProcessHandle.current().pid();
    private volatile boolean closed;

    AccessLogWriter(OutputStream out, boolean json, String loggerName, int capacity, Duration interval,
            Consumer<Entry> overflow) {
        this.out = out;
        this.json = json;
        this.loggerName = loggerName;
        this.intervalNanos = interval.toNanos();
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.overflow = overflow;
        String host = System.getenv("HOSTNAME");
        this.hostName = host == null ? "localhost" : host;
        this.thread = new Thread(this::run, "access-log-writer");
        thread.setDaemon(true);
        thread.start();
    }

    /** Never blocks: a full queue hands the entry to the overflow. */
    void write(Entry entry) {
        if (closed || !queue.offer(entry)) {
            overflow.accept(entry);
        }
    }

    private void run() {
        List<Entry> batch = new ArrayList<>();
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(64 * 1024);
        long next = System.nanoTime() + intervalNanos;
        while (!closed) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait); // may return early: the loop checks the time again
                continue;
            }
            drain(batch, buffer);
            next = System.nanoTime() + intervalNanos;
        }
    }

    private synchronized void drain(List<Entry> batch, ByteArrayOutputStream buffer) {
        queue.drainTo(batch);
        if (batch.isEmpty()) {
            return;
        }
        try {
            for (Entry e : batch) {
                format(e, buffer);
            }
            buffer.writeTo(out);
            out.flush();
        } catch (IOException | UncheckedIOException e) {
            // The console is gone (a closed pipe): nothing else could report it either.
        } finally {
            batch.clear();
            buffer.reset();
        }
    }

    void format(Entry e, ByteArrayOutputStream buffer) throws IOException {
        if (!json) {
            String line = TEXT_TIME.format(e.at()) + " INFO  [" + loggerName + "] (" + e.thread() + ") " + e.message() + "\n";
            buffer.write(line.getBytes(StandardCharsets.UTF_8));
            return;
        }
        try (JsonGenerator g = JSON.createGenerator(buffer)) {
            g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
            g.writeStartObject();
            g.writeStringField("timestamp", JSON_TIME.format(e.at()));
            g.writeStringField("loggerName", loggerName);
            g.writeStringField("level", "INFO");
            g.writeStringField("message", e.message());
            g.writeStringField("threadName", e.thread());
            g.writeObjectFieldStart("mdc");
            for (Map.Entry<String, String> field : e.mdc().entrySet()) {
                g.writeStringField(field.getKey(), field.getValue());
            }
            g.writeEndObject();
            g.writeStringField("hostName", hostName);
            g.writeNumberField("processId", processId);
            g.writeEndObject();
        }
        buffer.write('\n');
    }

    /** Writes what is queued, then stops the thread; later entries go to the overflow. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        drain(new ArrayList<>(), new ByteArrayOutputStream());
    }
}
