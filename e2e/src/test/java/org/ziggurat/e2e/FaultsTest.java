package org.ziggurat.e2e;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.e2e.Platform.anonymous;
import static org.ziggurat.e2e.Platform.as;

/**
 * Faults under load. The database goes away (connections cut, new ones refused for a few
 * seconds, as in a restart or failover) while writers append data events and take tokens; a
 * service is killed and started again while readers use it. Refusals are quick 503 problems;
 * everything recovers without restarting anything; every acknowledged write is still there.
 */
class FaultsTest {

    static final Pattern ID = Pattern.compile("\"id\":(\\d+)");

    /** Load that is running; {@link #finish()} waits for the writers once {@code stop} is set. */
    static final class Outcome {
        final List<Long> acknowledged = Collections.synchronizedList(new ArrayList<>());
        final Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        final long[] slowest = {0};
        /** Connections that broke (an IOException, counted as status -1), as they were reported. */
        final List<String> broken = Collections.synchronizedList(new ArrayList<>());
        final List<java.util.concurrent.Future<?>> writers = new ArrayList<>();
        ExecutorService pool;

        /** Waits until {@code more} further writes have been acknowledged (the load is flowing). */
        void awaitAcknowledged(int more) throws InterruptedException {
            awaitGrowth(acknowledged::size, more, "the load does not flow");
        }

        /** Waits until the writers have met {@code more} further failures (refusals or broken connections). */
        void awaitFailures(int more) throws InterruptedException {
            awaitGrowth(this::failures, more, "the writers never met the outage");
        }

        private int failures() {
            return statuses.entrySet().stream().filter(e -> e.getKey() != 201).mapToInt(Map.Entry::getValue).sum();
        }

        /** Polls {@code count} until it has grown by {@code more}, for at most 30 s. */
        private void awaitGrowth(java.util.function.IntSupplier count, int more, String failure) throws InterruptedException {
            int target = count.getAsInt() + more;
            long deadline = System.currentTimeMillis() + 30_000;
            while (count.getAsInt() < target && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(count.getAsInt() >= target, failure + ": " + statuses);
        }

        /** Only successes and quick 503 refusals came back, writes resumed, and every acknowledged one is stored. */
        void assertSurvived(long recoveredMillis, long recoveryBoundMillis, boolean refusalsExpected) throws Exception {
            long slowest = finish();
            assertTrue(statuses.getOrDefault(201, 0) > 20, "too little load: " + statuses);
            if (refusalsExpected) {
                assertTrue(statuses.getOrDefault(503, 0) > 0, "the fault was never noticed: " + statuses);
            }
            for (int status : statuses.keySet()) {
                assertTrue(status == 201 || status == 503, "answers around the fault: " + statuses + " " + broken);
            }
            assertTrue(slowest < 5000, "a refusal took " + slowest + " ms");
            assertTrue(recoveredMillis < recoveryBoundMillis, "writes came back after " + recoveredMillis + " ms");
            assertAllStored(acknowledged);
        }

        /** Waits for the writers; whatever failed in one of them (an assertion too) fails the test here. */
        long finish() throws Exception {
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "the writers did not stop within 30 s");
            for (var writer : writers) {
                writer.get();
            }
            return slowest[0];
        }
    }

    /** Writers appending events until told to stop: what was acknowledged, and how everything else was answered. */
    static Outcome load(String token, String path, int writers, AtomicBoolean stop) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        Outcome outcome = new Outcome();
        List<Long> acknowledged = outcome.acknowledged;
        Map<Integer, Integer> statuses = outcome.statuses;
        long[] slowest = outcome.slowest;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        outcome.pool = pool;
        for (int w = 0; w < writers; w++) {
            int writer = w;
            outcome.writers.add(pool.submit(() -> {
                int n = 0;
                while (!stop.get()) {
                    long start = System.nanoTime();
                    try {
                        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(Platform.api() + path))
                                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                                .timeout(Duration.ofSeconds(15))
                                .POST(HttpRequest.BodyPublishers.ofString("{\"note\":\"writer " + writer + " event " + n++ + "\"}"))
                                .build(), HttpResponse.BodyHandlers.ofString());
                        statuses.merge(answer.statusCode(), 1, Integer::sum);
                        if (answer.statusCode() == 201) {
                            Matcher m = ID.matcher(answer.body());
                            assertTrue(m.find());
                            acknowledged.add(Long.parseLong(m.group(1)));
                        } else {
                            long millis = (System.nanoTime() - start) / 1_000_000;
                            synchronized (slowest) {
                                slowest[0] = Math.max(slowest[0], millis);
                            }
                            Thread.sleep(20);
                        }
                    } catch (java.io.IOException e) {
                        // A broken connection: counted, and kept for the message. Anything else
                        // (an assertion above among them) ends this writer and fails finish().
                        statuses.merge(-1, 1, Integer::sum);
                        outcome.broken.add(e.toString());
                    }
                }
                return null;
            }));
        }
        pool.shutdown();
        return outcome;
    }

    static Connection admin() throws Exception {
        var server = Stack.get().server;
        return DriverManager.getConnection(server.jdbcUrl("postgres"), server.user(), server.password());
    }

    /**
     * The person a fault test loads the platform as. A test that follows another fault can find
     * directory-service still answering 503 (try again) for a moment, its pool meeting connections
     * that the last outage closed (seen in CI: the restart test's first sign-up, right after the
     * outage test). What each test asserts about its own fault is unchanged.
     */
    private static Platform.Person signUpWhenServing(String prefix) throws InterruptedException {
        return retryingUnavailable(() -> Platform.signUp(prefix));
    }

    @Test
    void theDatabaseGoesAwayAndComesBack() throws Exception {
        Platform.Person ada = signUpWhenServing("faults");
        String token = Platform.accessToken(ada, "user", "write");
        String path = "/" + ada.username() + "/repositories/under-load/data/events";
        AtomicBoolean stop = new AtomicBoolean();
        Outcome outcome = load(token, path, 4, stop);
        outcome.awaitAcknowledged(20);
        try (Connection c = admin(); Statement s = c.createStatement()) {
            s.execute("ALTER DATABASE " + Stack.DATABASE + " ALLOW_CONNECTIONS false");
            try {
                s.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + Stack.DATABASE + "'");
                Thread.sleep(4000); // the length of the outage, not a wait for anything
            } finally {
                s.execute("ALTER DATABASE " + Stack.DATABASE + " ALLOW_CONNECTIONS true");
            }
        }
        // Recovery without a restart: writes succeed again within seconds.
        long recovered = waitForWrite(token, path);
        outcome.awaitAcknowledged(20);
        stop.set(true);
        outcome.assertSurvived(recovered, 15_000, true);
    }

    /**
     * The real thing, where this machine allows it: the PostgreSQL server the stack uses restarts
     * under load, through its own pg_ctl, as the owner of its data. The server is found from
     * itself (its configuration file and version), so that the restarted server is the one the
     * services use: a Debian cluster, or the private cluster of {@code ./ziggurat test} (it had
     * restarted the Debian cluster on 5432 while the tests used the private one, and passed on
     * a load that never met a fault).
     */
    @Test
    void thePostgresServerRestartsUnderLoad() throws Exception {
        var server = Stack.get().server;
        boolean local = server.host().equals("127.0.0.1") || server.host().equals("localhost");
        boolean root = "root".equals(System.getProperty("user.name"));
        org.junit.jupiter.api.Assumptions.assumeTrue(local && root, "needs the PostgreSQL server on this host and root to restart it");
        String configDirectory;
        String major;
        String owner;
        try (Connection c = DriverManager.getConnection(server.jdbcUrl("postgres"), server.user(), server.password());
                Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT current_setting('config_file'), "
                    + "current_setting('server_version_num')::int / 10000, pg_catalog.pg_get_userbyid(d.datdba) "
                    + "FROM pg_database d WHERE d.datname = 'template1'")) {
                rs.next();
                configDirectory = java.nio.file.Path.of(rs.getString(1)).getParent().toString();
                major = Integer.toString(rs.getInt(2));
                owner = rs.getString(3);
            }
        }
        java.nio.file.Path pgCtl = java.nio.file.Path.of("/usr/lib/postgresql", major, "bin", "pg_ctl");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isExecutable(pgCtl), "no " + pgCtl);
        Platform.Person ada = signUpWhenServing("restart");
        String token = Platform.accessToken(ada, "user", "write");
        String path = "/" + ada.username() + "/repositories/restart/data/events";
        AtomicBoolean stop = new AtomicBoolean();
        Outcome outcome = load(token, path, 4, stop);
        outcome.awaitAcknowledged(20);
        // -D the configuration's directory: for a Debian cluster it is /etc/postgresql/..., whose
        // postgresql.conf names the data directory; for a private cluster it is the data directory.
        Process restart = new ProcessBuilder("runuser", "-u", owner, "--", pgCtl.toString(), "restart", "-D", configDirectory,
                "-m", "fast", "-w", "-t", "60", "-l", configDirectory.startsWith("/etc/postgresql/")
                        ? "/var/log/postgresql/postgresql-" + major + "-" + java.nio.file.Path.of(configDirectory).getFileName() + ".log"
                        : configDirectory + "/restart.log")
                .redirectErrorStream(true).start();
        String output = new String(restart.getInputStream().readAllBytes());
        assertTrue(restart.waitFor(60, TimeUnit.SECONDS) && restart.exitValue() == 0, "the restart failed: " + output);
        long recovered = waitForWrite(token, path);
        outcome.awaitAcknowledged(20);
        stop.set(true);
        outcome.assertSurvived(recovered, 20_000, false);
        // Tokens and the directory came back too, without restarting anything. The events answered
        // first; the balancer may still hold auth-service out for a check or two (a 503 with
        // Retry-After, which a client retries), never for long.
        as(accessTokenOnceReady(ada, "user")).get("/user").then().statusCode(200);
    }

    /** A password-grant token, retrying only the balancer's 503 (Retry-After) for up to 30 s. */
    static String accessTokenOnceReady(Platform.Person who, String... scopes) throws InterruptedException {
        return retryingUnavailable(() -> Platform.accessToken(who, scopes));
    }

    /**
     * The call's answer, calling again while it fails on a 503 (what a client does with "try
     * again"), for up to 30 s; any other failure, or a 503 past that, fails the test.
     */
    static <T> T retryingUnavailable(java.util.function.Supplier<T> call) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (true) {
            try {
                return call.get();
            } catch (AssertionError refused) {
                // RestAssured says "but was <503>", the OAuth library "Service Unavailable".
                String message = String.valueOf(refused.getMessage());
                boolean unavailable = message.contains("but was <503>") || message.contains("Service Unavailable");
                if (!unavailable || System.currentTimeMillis() > deadline) {
                    throw refused;
                }
                Thread.sleep(200);
            }
        }
    }

    @Test
    void aServiceIsKilledAndStartedAgain() throws Exception {
        Platform.Person ada = signUpWhenServing("faults");
        String token = Platform.accessToken(ada, "user", "write");
        String path = "/" + ada.username() + "/repositories/crash/data/events";
        AtomicBoolean stop = new AtomicBoolean();
        Outcome outcome = load(token, path, 2, stop);
        outcome.awaitAcknowledged(10);
        Stack.get().kill("events-service");
        try {
            long start = System.nanoTime();
            anonymous().get(path).then().statusCode(503).contentType(org.hamcrest.Matchers.containsString("problem+json"));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(millis < 2000, "the gateway took " + millis + " ms to say the service is away");
            // Other services are untouched.
            as(token).get("/user").then().statusCode(200);
            outcome.awaitFailures(4); // the writers meet the dead service, not just the probe above
        } finally {
            Stack.get().restart("events-service");
        }
        long recovered = waitForWrite(token, path);
        stop.set(true);
        outcome.finish();
        assertTrue(recovered < 15_000, "writes came back after " + recovered + " ms");
        for (int status : outcome.statuses.keySet()) {
            assertTrue(status == 201 || status == 503 || status == 502 || status == -1,
                    "answers while the service was away: " + outcome.statuses + " " + outcome.broken);
        }
        assertAllStored(outcome.acknowledged);
    }

    static long waitForWrite(String token, String path) throws InterruptedException {
        long start = System.currentTimeMillis();
        while (System.currentTimeMillis() - start < 30_000) {
            int status = as(token).contentType("application/json").body(Map.of("note", "are we back?")).post(path)
                    .then().extract().statusCode();
            if (status == 201) {
                return System.currentTimeMillis() - start;
            }
            Thread.sleep(200);
        }
        return Long.MAX_VALUE;
    }

    static void assertAllStored(List<Long> acknowledged) throws Exception {
        assertTrue(!acknowledged.isEmpty());
        var server = Stack.get().server;
        try (Connection c = DriverManager.getConnection(server.jdbcUrl(Stack.DATABASE), server.user(), server.password());
                Statement s = c.createStatement()) {
            String ids = acknowledged.stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElseThrow();
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM events.data_event WHERE id IN (" + ids + ")")) {
                rs.next();
                assertEquals(acknowledged.size(), rs.getLong(1), "acknowledged events are missing");
            }
        }
    }
}
