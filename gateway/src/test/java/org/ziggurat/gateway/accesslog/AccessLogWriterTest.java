package org.ziggurat.gateway.accesslog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AccessLogWriterTest {

    private static AccessLogWriter.Entry entry(int n, String path) {
        return new AccessLogWriter.Entry(Instant.parse("2026-11-22T10:00:00.123Z"), "vert.x-eventloop-thread-0",
                "req-" + n, "GET", path, "200", "1.234", "directory-service", "127.0.0.1");
    }

    @Test
    void everyQueuedLineIsWrittenAsJsonWithItsFieldsUnderMdc() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<AccessLogWriter.Entry> overflow = new ArrayList<>();
        AccessLogWriter writer = new AccessLogWriter(out, true, AccessLog.LOGGER, 10_000, Duration.ofMillis(5), overflow::add);
        for (int i = 0; i < 1000; i++) {
            writer.write(entry(i, "/people/" + i));
        }
        // Characters a path may carry, escaped: the line stays one JSON document.
        writer.write(entry(1000, "/people/a\"b\\c\u00e9\n"));
        writer.close();

        String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(1001, lines.length);
        assertTrue(overflow.isEmpty());
        ObjectMapper mapper = new ObjectMapper();
        for (int i = 0; i < lines.length; i++) {
            JsonNode line = mapper.readTree(lines[i]);
            assertEquals("req-" + i, line.at("/mdc/request_id").asText(), "lines keep their order");
            assertEquals(AccessLog.LOGGER, line.get("loggerName").asText());
            assertEquals("INFO", line.get("level").asText());
            assertEquals("200", line.at("/mdc/status").asText());
            assertEquals("directory-service", line.at("/mdc/service").asText());
        }
        JsonNode last = mapper.readTree(lines[1000]);
        assertEquals("/people/a\"b\\c\u00e9\n", last.at("/mdc/path").asText());
        assertEquals("GET /people/a\"b\\c\u00e9\n 200 1.234ms", last.get("message").asText());
        assertEquals(Instant.parse("2026-11-22T10:00:00.123Z"),
                java.time.OffsetDateTime.parse(last.get("timestamp").asText()).toInstant());
    }

    @Test
    void theTextFormatIsTheConsoleLogsLine() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        AccessLogWriter writer = new AccessLogWriter(out, false, AccessLog.LOGGER, 10, Duration.ofMillis(5), e -> { });
        writer.write(entry(1, "/user"));
        writer.close();
        String line = out.toString(StandardCharsets.UTF_8);
        assertTrue(line.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3} INFO  \\[org\\.ziggurat\\.gateway\\.access\\] "
                + "\\(vert\\.x-eventloop-thread-0\\) GET /user 200 1\\.234ms\n"), line);
    }

    @Test
    void whatTheQueueCannotHoldGoesToTheOverflowNotLost() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<AccessLogWriter.Entry> overflow = java.util.Collections.synchronizedList(new ArrayList<>());
        // The writer sleeps for a minute: the queue of 10 fills, and the rest overflows.
        AccessLogWriter writer = new AccessLogWriter(out, true, AccessLog.LOGGER, 10, Duration.ofMinutes(1), overflow::add);
        for (int i = 0; i < 25; i++) {
            writer.write(entry(i, "/p"));
        }
        assertEquals(15, overflow.size());
        writer.close();
        assertEquals(10, out.toString(StandardCharsets.UTF_8).split("\n").length);
        writer.write(entry(99, "/after-close"));
        assertEquals(16, overflow.size(), "after close, entries still go somewhere");
    }

    /** The access log is written apart from the logging system: codes and tokens in a path are redacted here. */
    @Test
    void codesAndTokensInPathsAreRedacted() {
        String code = "zac_" + "Ab0_-".repeat(8) + "xyz";
        assertEquals("/api/oauth/authorize/[redacted]", AccessLog.loggedPath("/api/oauth/authorize/" + code));
        assertEquals("/api/oauth/authorize/[redacted]", AccessLog.loggedPath("/api/oauth/authorize/" + code.replace("_", "%5F")));
        assertEquals("/x/[redacted]/y", AccessLog.loggedPath("/x/eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.c2lnbmF0dXJl/y"));
        assertEquals("/api/people/alice_b", AccessLog.loggedPath("/api/people/alice_b"));
        assertEquals("/api/people/ada%20l", AccessLog.loggedPath("/api/people/ada%20l"));
        assertEquals("/api/user", AccessLog.loggedPath("/api/user"));
    }
}
