package org.ziggurat.e2e;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The lines a failed journey's report keeps: warnings and errors of each format, written during the journey. */
class LogsOfFailedTestsTest {

    @Test
    void keepsTheWarningsAndErrorsWrittenSinceTheJourneyBegan(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("auth-service.log");
        Files.writeString(log, "{\"level\":\"WARN\",\"message\":\"before the journey\"}\n");
        long before = Files.size(log);
        Files.writeString(log, String.join("\n",
                "{\"level\":\"INFO\",\"message\":\"a token was issued\"}",
                "{\"level\":\"WARN\",\"message\":\"The database is not reachable now\"}",
                "2026-11-26 20:09:38.345 UTC [15682] WARNING C-0x5603: pooler error: query_wait_timeout",
                "2026-11-26 20:09:38.345 UTC [15682] LOG C-0x5603: closing because: client close request",
                "{\"level\":\"ERROR\",\"message\":\"Unexpected failure\"}",
                "2026-11-26 22:49:12,942 WARN  [org.zig.pla.pro.ProblemMappers] The database is not reachable now",
                "2026-11-26 22:49:12,943 INFO  [io.quarkus] started", ""), java.nio.file.StandardOpenOption.APPEND);

        assertEquals(List.of("{\"level\":\"WARN\",\"message\":\"The database is not reachable now\"}",
                "2026-11-26 20:09:38.345 UTC [15682] WARNING C-0x5603: pooler error: query_wait_timeout",
                "{\"level\":\"ERROR\",\"message\":\"Unexpected failure\"}",
                "2026-11-26 22:49:12,942 WARN  [org.zig.pla.pro.ProblemMappers] The database is not reachable now"),
                LogsOfFailedTests.severeLines(log, before));
    }

    @Test
    void aLogShorterThanItWasIsReadWhole(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("gateway.log");
        Files.writeString(log, "{\"level\":\"ERROR\",\"message\":\"x\"}\n");
        assertEquals(1, LogsOfFailedTests.severeLines(log, 10_000).size());
    }
}
