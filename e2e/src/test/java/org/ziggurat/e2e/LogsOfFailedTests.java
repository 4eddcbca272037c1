package org.ziggurat.e2e;

import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * When a journey fails, what the stack's processes logged at warning level or above while it ran,
 * appended to {@code target/failed-tests-logs.txt} (which {@code ./ziggurat test} prints last
 * when the tests failed). A failure seen once, on a machine whose logs are gone after the run,
 * can then still be understood from the run's output. Registered for every test class by
 * autodetection ({@code META-INF/services}); it never starts the stack itself.
 */
public final class LogsOfFailedTests implements BeforeTestExecutionCallback, TestWatcher {

    static final Path LOGS = Path.of(System.getProperty("user.dir"), "target", "e2e-logs");
    static final Path REPORT = Path.of(System.getProperty("user.dir"), "target", "failed-tests-logs.txt");
    /** The services' JSON lines at WARN or ERROR, PgBouncer's and HAProxy's warnings, errors and alerts. */
    private static final Pattern SEVERE = Pattern.compile("\"level\":\"(WARN|ERROR|FATAL)\"|\\b(WARN|WARNING|ERROR|FATAL|ALERT)\\b");
    private static final int LINES_PER_LOG = 12;
    private static final int LINE_LENGTH = 400;

    static {
        try {
            Files.deleteIfExists(REPORT); // this run's failures only
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    public void beforeTestExecution(ExtensionContext context) throws IOException {
        // Before the stack's first start its logs are the last run's, deleted as it starts: the
        // journey that starts it is reported from the beginning of the new ones (no lengths).
        Map<Path, Long> lengths = new HashMap<>();
        if (Stack.started()) {
            for (Path log : logs()) {
                lengths.put(log, Files.size(log));
            }
        }
        context.getStore(ExtensionContext.Namespace.create(getClass())).put(context.getUniqueId(), lengths);
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        @SuppressWarnings("unchecked")
        Map<Path, Long> before = context.getStore(ExtensionContext.Namespace.create(getClass()))
                .get(context.getUniqueId(), Map.class);
        List<String> report = new ArrayList<>();
        report.add("== " + context.getRequiredTestClass().getSimpleName() + "." + context.getDisplayName()
                + ": " + String.valueOf(cause).lines().findFirst().orElse(""));
        try {
            for (Path log : logs()) {
                long from = before == null ? 0 : before.getOrDefault(log, 0L);
                List<String> severe = severeLines(log, from);
                if (!severe.isEmpty()) {
                    report.add("-- " + log.getFileName() + (severe.size() > LINES_PER_LOG
                            ? " (last " + LINES_PER_LOG + " of " + severe.size() + ")" : ""));
                    severe.subList(Math.max(0, severe.size() - LINES_PER_LOG), severe.size()).forEach(report::add);
                }
            }
            Files.createDirectories(REPORT.getParent());
            Files.write(REPORT, report, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.err.println("could not gather the logs of " + context.getDisplayName() + ": " + e);
        }
    }

    /** The warnings and errors written to {@code log} from byte {@code from} on, each cut to a readable length. */
    static List<String> severeLines(Path log, long from) throws IOException {
        List<String> severe = new ArrayList<>();
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            file.seek(from <= file.length() ? from : 0); // shorter: not the file it was
            byte[] rest = new byte[(int) Math.min(Integer.MAX_VALUE - 8, file.length() - file.getFilePointer())];
            file.readFully(rest);
            new String(rest, StandardCharsets.UTF_8).lines().filter(l -> SEVERE.matcher(l).find())
                    .map(l -> l.length() > LINE_LENGTH ? l.substring(0, LINE_LENGTH) + "…" : l)
                    .forEach(severe::add);
        }
        return severe;
    }

    private static List<Path> logs() throws IOException {
        if (!Files.isDirectory(LOGS)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(LOGS)) {
            return files.filter(f -> f.toString().endsWith(".log")).sorted().toList();
        }
    }
}
