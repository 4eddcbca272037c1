package org.ziggurat.e2e;

import org.ziggurat.platform.testing.Pooler;

import org.ziggurat.platform.testing.PostgresTestDatabase;
import org.ziggurat.platform.token.PlatformKeys;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.Map;

/**
 * The whole platform as it ships: each module's packaged application ({@code target/quarkus-app})
 * started as its own process in the production profile, on free ports, against one fresh
 * database on the test PostgreSQL, each service logging in as its own role into its own schema,
 * its queries through PgBouncer in transaction mode as in production ({@link Pooler}), its
 * migrations and its LISTEN straight to the server.
 * Started once per test run and shared by every journey; stopped when the JVM ends. The
 * services' logs are kept in {@code e2e/target/e2e-logs}.
 */
public final class Stack {

    static final String DATABASE = "ziggurat_e2e";
    /** Token requests per client and window that the gateways allow together. */
    static final int TOKEN_ENDPOINT_PER_CLIENT = 40;
    static final List<String> SERVICES = List.of("directory-service", "auth-service", "vocab-service", "events-service");
    /**
     * Every module runs two instances ({@code <module>} and {@code <module>-2}), as production
     * runs two or more, behind HAProxy ({@link Balancer}): clients reach the gateways through the
     * public front, the gateways and services reach a service through its front. The promises
     * that cross replicas are tested between the two, each instance addressed directly
     * ({@link #instanceUrl}).
     */
    static final List<String> MODULES = List.of("gateway", "directory-service", "auth-service", "vocab-service",
            "events-service");
    static final Map<String, String> SCHEMA = Map.of("auth-service", "auth", "directory-service", "directory",
            "vocab-service", "vocab", "events-service", "events");

    private static Stack running;

    /**
     * The training run of the services' AOT caches ({@code ./ziggurat train}): with a JDK 25 or newer
     * named here, each module's first instance runs on it and records what the journeys make it
     * load, link and compile, into {@code target/quarkus-app/app.aot} when it stops; the launcher
     * starts the services with that cache. Training instances use the launcher's collector and
     * full JIT, the others the tests' usual C1-only JVM. The cache holds the loaded and linked
     * classes but not the journeys' method profiles (JEP 515, recorded by default). With them,
     * reading a concept ran at 0.82x of the same build without a cache, side by side; without
     * them, at 1.06x and 0.93x, and start-up was the same (the "Footprint" of
     * bench/results/readme-performance-to-20261128.md).
     */
    static final String TRAINING_JAVA = System.getenv("ZIGGURAT_AOT_TRAINING_JAVA");
    static final String AOT_CACHE = "app.aot";

    final Path root = Path.of(System.getProperty("user.dir")).getParent();
    final Path work = Path.of(System.getProperty("user.dir"), "target", "e2e");
    final Path logs = Path.of(System.getProperty("user.dir"), "target", "e2e-logs");
    final Map<String, Integer> ports = new LinkedHashMap<>();
    final Map<String, Process> processes = new LinkedHashMap<>();
    final PostgresTestDatabase.Server server = PostgresTestDatabase.adminServer();
    final String gatewayClientSecret = random(32);
    /** auth-service's keys: one pair for all its instances and restarts, as a Kubernetes secret is. */
    private final String tokenHashKey = Base64.getEncoder().encodeToString(randomBytes(32));
    private final String tokenEncryptionKey = Base64.getEncoder().encodeToString(randomBytes(32));
    private final String factorKey = Base64.getEncoder().encodeToString(randomBytes(32));
    /** events-service's key for its webhooks' secrets: one for both instances, as a Kubernetes secret is. */
    private final String webhookKey = Base64.getEncoder().encodeToString(randomBytes(32));
    /** The gateways' management ports (their readiness), by instance. */
    final Map<String, Integer> managementPorts = new LinkedHashMap<>();
    /** The gateways' peer ports, by instance: where the other gateway asks about the DPoP proofs of its nonces. */
    final Map<String, Integer> peerPorts = new LinkedHashMap<>();
    /** The balancer's front for each module (the gateway's is the public one). */
    final Map<String, Integer> fronts = new LinkedHashMap<>();
    private int poolerPort;
    private final int smtpPort;
    /**
     * Where Keycloak, the upstream provider people sign in with, listens once a test starts it
     * ({@link KeycloakServer}), and its client's secret: auth-service is configured with both from
     * the start, and asks Keycloak for nothing until someone presses its button.
     */
    final int keycloakPort;
    final String keycloakClientSecret = random(32);
    private MailServer mail;
    private Pooler pooler;
    private Balancer balancer;
    private Path keys;
    private Map<String, String> passwords;

    /** The public base of the API, as clients see it. */
    public final String api;

    private Stack() throws Exception {
        for (String m : MODULES) {
            for (String instance : instancesOf(m)) {
                ports.put(instance, freePort());
            }
            fronts.put(m, freePort());
        }
        for (String instance : instancesOf("gateway")) {
            managementPorts.put(instance, freePort());
            peerPorts.put(instance, freePort());
        }
        poolerPort = freePort();
        smtpPort = freePort();
        keycloakPort = freePort();
        api = "http://127.0.0.1:" + fronts.get("gateway") + "/api";
    }

    /** Whether the stack runs already; its first start deletes the last run's logs. */
    static synchronized boolean started() {
        return running != null;
    }

    public static synchronized Stack get() {
        if (running == null) {
            try {
                Stack stack = new Stack();
                Runtime.getRuntime().addShutdownHook(new Thread(stack::stop));
                try {
                    stack.start();
                } catch (Exception e) {
                    stack.stop(); // nothing of a failed start may linger and hold ports
                    throw e;
                }
                running = stack;
            } catch (Exception e) {
                throw new IllegalStateException("The stack did not start: " + e.getMessage(), e);
            }
        }
        return running;
    }

    public Path logsDirectory() {
        return logs;
    }

    private void start() throws Exception {
        Files.createDirectories(work);
        Files.createDirectories(logs);
        try (var old = Files.list(logs)) {
            for (Path log : old.toList()) {
                Files.delete(log); // this run's logs only: restarts within the run append
            }
        }
        keys = work.resolve("keys");
        List<String> signers = new ArrayList<>(SCHEMA.keySet());
        signers.add("gateway");
        for (String signer : signers) {
            PlatformKeys.ensureKey(keys, signer);
        }
        PlatformKeys.writeJwks(keys);
        passwords = provisionDatabase();
        mail = MailServer.start(smtpPort);
        Map<String, String> roles = new LinkedHashMap<>();
        passwords.forEach((schema, password) -> roles.put("ziggurat_e2e_" + schema, password));
        pooler = Pooler.start(logs.resolve("pgbouncer.log"), poolerPort, server.host(), server.port(), DATABASE, roles);
        List<Balancer.Front> balanced = new ArrayList<>();
        for (String m : MODULES) {
            balanced.add(new Balancer.Front(m.equals("gateway") ? "public" : m, fronts.get(m), instancesOf(m).stream()
                    .map(i -> new int[] {ports.get(i), managementPorts.getOrDefault(i, ports.get(i))}).toList()));
        }
        balancer = Balancer.start(logs.resolve("haproxy.log"), balanced);
        List<String> instances = new ArrayList<>();
        SERVICES.forEach(m -> instances.addAll(instancesOf(m)));
        for (String instance : instances) {
            launch(instance, keys, passwords);
        }
        for (String instance : instances) {
            awaitReady(instance);
        }
        for (String instance : instancesOf("gateway")) {
            launch(instance, keys, passwords);
        }
        for (String instance : instancesOf("gateway")) {
            awaitReady(instance);
        }
        awaitBalanced();
        operator = signUpOperator();
    }

    /** The platform's operator (events-service's ZIGGURAT_EVENTS_OPERATORS): the first person of the fresh database. */
    static final long OPERATOR_ID = 1;
    private Platform.Person operator;

    public Platform.Person operator() {
        return operator;
    }

    private Platform.Person signUpOperator() throws Exception {
        String username = "operator-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        String password = "correct horse " + java.util.UUID.randomUUID();
        String body = "{\"username\":\"" + username + "\",\"password\":\"" + password + "\",\"email\":\"" + username
                + "@example.org\",\"display_name\":\"Operator\"}";
        var answer = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(URI.create(api + "/people"))
                .header("Content-Type", "application/json").POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 201 || !answer.body().contains("\"id\":" + OPERATOR_ID + ",")) {
            throw new IllegalStateException("the operator is not the first person (" + answer.statusCode() + " " + answer.body() + ")");
        }
        return new Platform.Person(OPERATOR_ID, username, password);
    }

    /**
     * HAProxy checks the instances every 500 ms: a test that starts the moment they are ready
     * could still be told that none is (a 503 of the balancer's own). Every front must pass
     * requests on before the stack counts as started.
     */
    private void awaitBalanced() throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        long deadline = System.currentTimeMillis() + 30_000;
        for (Map.Entry<String, Integer> front : fronts.entrySet()) {
            while (true) {
                var answer = http.send(java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + front.getValue()
                        + "/q/health/ready")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
                if (!answer.body().contains("No instance of this service is ready")) {
                    break;
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("HAProxy sees no ready instance of " + front.getKey());
                }
                Thread.sleep(100);
            }
        }
    }

    /** A fresh database; a role per service (as in production), owning its schema and nothing else. */
    private Map<String, String> provisionDatabase() throws SQLException {
        Map<String, String> passwords = new HashMap<>();
        try (Connection admin = DriverManager.getConnection(server.jdbcUrl("postgres"), server.user(), server.password());
                Statement sql = admin.createStatement()) {
            sql.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
            sql.execute("CREATE DATABASE " + DATABASE);
            for (String schema : SCHEMA.values()) {
                String role = "ziggurat_e2e_" + schema;
                String password = random(18);
                passwords.put(schema, password);
                sql.execute("DO $$ BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = '" + role + "') THEN "
                        + "ALTER ROLE " + role + " LOGIN PASSWORD '" + password + "'; ELSE CREATE ROLE " + role
                        + " LOGIN PASSWORD '" + password + "'; END IF; END $$");
                sql.execute("GRANT CONNECT, TEMPORARY ON DATABASE " + DATABASE + " TO " + role);
            }
        }
        try (Connection admin = DriverManager.getConnection(server.jdbcUrl(DATABASE), server.user(), server.password());
                Statement sql = admin.createStatement()) {
            sql.execute("CREATE SCHEMA extensions");
            sql.execute("GRANT USAGE ON SCHEMA extensions TO PUBLIC");
            sql.execute("CREATE EXTENSION pg_trgm SCHEMA extensions");
            for (String schema : SCHEMA.values()) {
                String role = "ziggurat_e2e_" + schema;
                sql.execute("CREATE SCHEMA " + schema + " AUTHORIZATION " + role);
                sql.execute("ALTER ROLE " + role + " IN DATABASE " + DATABASE + " SET search_path = " + schema);
            }
        }
        return passwords;
    }

    /** The platform's signing keys (for tokens a test signs as the gateway would). */
    public Path keysDirectory() {
        return keys;
    }

    /** The base URL of one instance, straight, not through the gateway: {@code auth-service-2}, say. */
    public String instanceUrl(String instance) {
        return "http://127.0.0.1:" + ports.get(instance);
    }

    /** {@code instance}: a module, or {@code <module>-2} for its second instance. */
    private void launch(String instance, Path keys, Map<String, String> passwords) throws IOException {
        String module = instance.endsWith("-2") ? instance.substring(0, instance.length() - 2) : instance;
        Path jar = root.resolve(module + "/target/quarkus-app/quarkus-run.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: package the modules first (./mvnw verify builds them before e2e)");
        }
        Map<String, String> env = new LinkedHashMap<>();
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("QUARKUS_HTTP_PORT", Integer.toString(ports.get(instance)));
        env.put("QUARKUS_LOG_CONSOLE_JSON_ENABLED", "false");
        // Our own code and the token machinery at their most talkative level, so that the log test
        // sees everything that could ever be logged (DEBUG is the finest level the builds keep).
        env.put("QUARKUS_LOG_CATEGORY__ORG_ZIGGURAT__LEVEL", "DEBUG");
        env.put("QUARKUS_LOG_CATEGORY__IO_QUARKUS_OIDC__LEVEL", "DEBUG");
        env.put("QUARKUS_LOG_CATEGORY__IO_QUARKUS_SMALLRYE_JWT__LEVEL", "DEBUG");
        env.put("QUARKUS_LOG_CATEGORY__IO_SMALLRYE_JWT__LEVEL", "DEBUG");
        env.put("MP_JWT_VERIFY_PUBLICKEY_LOCATION", "file:" + keys.resolve("jwks.json"));
        env.put("ZIGGURAT_PLATFORM_TOKEN_SIGNER", module);
        env.put("ZIGGURAT_PLATFORM_TOKEN_SIGNING_KEY", keys.resolve(module + ".private.pem").toString());
        String directory = "http://127.0.0.1:" + fronts.get("directory-service");
        if (module.equals("gateway")) {
            env.put("QUARKUS_MANAGEMENT_PORT", Integer.toString(managementPorts.get(instance)));
            env.put("ZIGGURAT_GATEWAY_DPOP_PEER_PORT", Integer.toString(peerPorts.get(instance)));
            env.put("ZIGGURAT_GATEWAY_DPOP_PEER_HOST", "127.0.0.1");
            // A first use asked of the other gateway must not be refused because the machine is busy.
            env.put("ZIGGURAT_GATEWAY_DPOP_PEER_TIMEOUT", "15s");
            env.put("ZIGGURAT_GATEWAY_PUBLIC_BASE_URL", api);
            env.put("ZIGGURAT_GATEWAY_CLIENT_SECRET", gatewayClientSecret);
            for (String m : SERVICES) {
                env.put("ZIGGURAT_GATEWAY_UPSTREAMS_" + m.toUpperCase().replace('-', '_'), "http://127.0.0.1:" + fronts.get(m));
            }
            // Revocation reaches the gateway within the token cache's lifetime (30 s in production);
            // short here so that the journeys prove it in seconds.
            env.put("ZIGGURAT_GATEWAY_TOKEN_CACHE_TTL", "2s");
            // The journeys are quick but many; the limits themselves are tested in the gateway module.
            env.put("ZIGGURAT_GATEWAY_RATE_LIMIT_AUTHENTICATED", "1000000");
            env.put("ZIGGURAT_GATEWAY_RATE_LIMIT_ANONYMOUS", "1000000");
            env.put("ZIGGURAT_GATEWAY_RATE_LIMIT_TOKEN_ENDPOINT_PER_ADDRESS", "1000000");
            // Per client, a limit low enough to count: ReplicasTest checks that it holds in total
            // across the two gateways, each of which allows its share.
            env.put("ZIGGURAT_GATEWAY_RATE_LIMIT_TOKEN_ENDPOINT_PER_CLIENT", Integer.toString(TOKEN_ENDPOINT_PER_CLIENT));
            env.put("ZIGGURAT_GATEWAY_REPLICAS", Integer.toString(instancesOf("gateway").size()));
        } else {
            String schema = SCHEMA.get(module);
            // Queries through the pooler; Flyway (JDBC) and LISTEN (from the JDBC URL) to the server.
            env.put("QUARKUS_DATASOURCE_REACTIVE_URL", "postgresql://127.0.0.1:" + poolerPort + "/" + DATABASE);
            if (!pooler.tracksPreparedStatements) {
                // PgBouncer before 1.21 (Debian's is 1.18) keeps no prepared statement across
                // transactions: the reactive client must not name and cache them (deploy/README.md).
                env.put("QUARKUS_DATASOURCE_REACTIVE_POSTGRESQL_USE_LAYER7_PROXY", "true");
                env.put("QUARKUS_DATASOURCE_REACTIVE_CACHE_PREPARED_STATEMENTS", "false");
            }
            env.put("QUARKUS_DATASOURCE_JDBC_URL", server.jdbcUrl(DATABASE));
            env.put("QUARKUS_DATASOURCE_USERNAME", "ziggurat_e2e_" + schema);
            env.put("QUARKUS_DATASOURCE_PASSWORD", passwords.get(schema));
        }
        switch (module) {
            case "auth-service" -> {
                env.put("ZIGGURAT_AUTH_ISSUER", api);
                // Changes to applications go to the audit stream, relayed within a second here.
                env.put("ZIGGURAT_AUTH_AUDIT_EVENTS_URL", "http://127.0.0.1:" + fronts.get("events-service"));
                env.put("ZIGGURAT_AUTH_AUDIT_POLL", "500ms");
                env.put("ZIGGURAT_AUTH_AUDIT_FIRST_RETRY", "1s");
                env.put("ZIGGURAT_AUTH_AUDIT_LONGEST_RETRY", "2s");
                // Passkeys: a browser takes no IP address as a relying party, so the pages are also
                // reached as localhost, where the passkey tests use them (SecondFactorBrowserTest).
                env.put("ZIGGURAT_AUTH_WEBAUTHN_RP_ID", "localhost");
                env.put("ZIGGURAT_AUTH_WEBAUTHN_ORIGINS", api.replaceFirst("/api$", "").replace("127.0.0.1", "localhost"));
                // Signing keys are checked hourly in production; here often enough that a test
                // sees a rotation (OpenIdRelyingPartyTest) in seconds.
                env.put("ZIGGURAT_AUTH_SIGNING_KEY_CHECK_EVERY", "2s");
                env.put("ZIGGURAT_AUTH_TOKEN_HASH_KEY", tokenHashKey);
                env.put("ZIGGURAT_AUTH_TOKEN_ENCRYPTION_KEY", tokenEncryptionKey);
                env.put("ZIGGURAT_AUTH_GATEWAY_CLIENT_SECRET", gatewayClientSecret);
                env.put("QUARKUS_REST_CLIENT_DIRECTORY_URL", directory);
                // Sign-in through an institution: Keycloak's research realm (FederationBrowserTest).
                env.put("ZIGGURAT_AUTH_FEDERATION_PROVIDERS_KEYCLOAK_ISSUER", "http://127.0.0.1:" + keycloakPort + "/realms/"
                        + KeycloakServer.REALM);
                env.put("ZIGGURAT_AUTH_FEDERATION_PROVIDERS_KEYCLOAK_DISPLAY_NAME", "your institution");
                env.put("ZIGGURAT_AUTH_FEDERATION_PROVIDERS_KEYCLOAK_CLIENT_ID", KeycloakServer.CLIENT_ID);
                env.put("ZIGGURAT_AUTH_FEDERATION_PROVIDERS_KEYCLOAK_CLIENT_SECRET", keycloakClientSecret);
                env.put("ZIGGURAT_AUTH_FEDERATION_PROVIDERS_KEYCLOAK_ORCID_CLAIM", "orcid");
                env.put("ZIGGURAT_AUTH_FEDERATION_PROVIDERS_KEYCLOAK_SCOPES", "openid profile email");
                // What the realm may assert in the platform's name (its allow-list), and Keycloak's
                // address: a provider's endpoints are held to the webhook address rules, loopback allowed here.
                env.put("ZIGGURAT_AUTH_FEDERATION_PROVIDERS_KEYCLOAK_ASSURANCE", "https://refeds.org/assurance,"
                        + KeycloakServer.ASSURANCE);
                env.put("ZIGGURAT_AUTH_FEDERATION_ALLOWED_NETWORKS", "127.0.0.1/32");
                // Resource servers outside the platform's API (ResourceServerTokensTest): a storage
                // system whose tokens live 20 s (to see one expire), and a compute portal.
                env.put("ZIGGURAT_AUTH_RESOURCE_SERVERS_STORAGE_IDENTIFIER", ResourceServerTokensTest.STORAGE);
                env.put("ZIGGURAT_AUTH_RESOURCE_SERVERS_STORAGE_SCOPES", "user,write");
                env.put("ZIGGURAT_AUTH_RESOURCE_SERVERS_STORAGE_CLIENT_ID", ResourceServerTokensTest.STORAGE_SERVICE);
                env.put("ZIGGURAT_AUTH_RESOURCE_SERVERS_STORAGE_ACCESS_TOKEN_LIFETIME", "20s");
                env.put("ZIGGURAT_AUTH_RESOURCE_SERVERS_COMPUTE_IDENTIFIER", ResourceServerTokensTest.COMPUTE);
                env.put("ZIGGURAT_AUTH_RESOURCE_SERVERS_COMPUTE_SCOPES", "user");
                // The operator registers resource servers through the API (RegisteredResourceServerTest),
                // whose status lists may be kept 2 s (60 in production), to see a revocation reach one.
                env.put("ZIGGURAT_AUTH_OPERATORS", Long.toString(OPERATOR_ID));
                env.put("ZIGGURAT_AUTH_STATUS_LIST_TTL", "2s");
            }
            case "directory-service" -> {
                env.put("ZIGGURAT_DIRECTORY_SIGNUP_OPEN", "true");
                env.put("ZIGGURAT_DIRECTORY_FACTOR_KEY", factorKey);
                env.put("QUARKUS_MAILER_HOST", "127.0.0.1");
                env.put("QUARKUS_MAILER_PORT", Integer.toString(smtpPort));
                env.put("QUARKUS_MAILER_FROM", "Ziggurat <no-reply@ziggurat.test>");
                env.put("ZIGGURAT_MAIL_ACCOUNT_URL", api + "/account");
                // Retries within seconds here (MailTest stops the mail server), minutes in production.
                env.put("ZIGGURAT_MAIL_POLL", "500ms");
                env.put("ZIGGURAT_MAIL_FIRST_RETRY", "1s");
                env.put("ZIGGURAT_MAIL_LONGEST_RETRY", "2s");
                // Every request here comes from one address: BadInputTest's asks must not use up
                // AccountMailTest's (the limit itself is PasswordRecoveryTest's, in directory-service).
                env.put("ZIGGURAT_DIRECTORY_RECOVERY_ASKS_PER_ADDRESS", "100000");
                // The services that hold a person's data beside the directory (export, deletion).
                env.put("ZIGGURAT_DIRECTORY_PEERS_AUTH_URL", "http://127.0.0.1:" + fronts.get("auth-service"));
                env.put("ZIGGURAT_DIRECTORY_PEERS_VOCAB_URL", "http://127.0.0.1:" + fronts.get("vocab-service"));
                env.put("ZIGGURAT_DIRECTORY_PEERS_EVENTS_URL", "http://127.0.0.1:" + fronts.get("events-service"));
                env.put("ZIGGURAT_DIRECTORY_PEERS_POLL", "500ms");
                env.put("ZIGGURAT_DIRECTORY_RESEARCH_CLAIMS_ENTITLEMENT_NAMESPACE", "urn:geant:ziggurat.test:platform");
                env.put("ZIGGURAT_DIRECTORY_RESEARCH_CLAIMS_AUTHORITY", "ziggurat.test");
                env.put("ZIGGURAT_DIRECTORY_PEERS_FIRST_RETRY", "1s");
                env.put("ZIGGURAT_DIRECTORY_PEERS_LONGEST_RETRY", "2s");
            }
            case "vocab-service" -> {
                env.put("QUARKUS_REST_CLIENT_DIRECTORY_URL", directory);
                // Import jobs are polled every second, and one whose replica stopped beating for
                // 20 s is claimed again (2 minutes in production): ReplicasTest kills one mid-way.
                // At 5 s, with beats only between batches, a live replica beside a busy machine's
                // other work missed two, its import was claimed away twice and failed after three
                // runs, killed by nobody; beats now come on a timer (ImportWorker), and 20 s stays
                // as the margin for a stalled machine.
                env.put("ZIGGURAT_VOCAB_IMPORTS_POLL", "1s");
                env.put("ZIGGURAT_VOCAB_IMPORTS_STALE_AFTER", "20s");
            }
            case "events-service" -> {
                env.put("QUARKUS_REST_CLIENT_DIRECTORY_URL", directory);
                // Open streams check their readers' rights again every 2 s here (StreamsTest), not 30.
                env.put("ZIGGURAT_EVENTS_STREAM_RIGHTS_RECHECK", "2s");
                env.put("ZIGGURAT_EVENTS_WEBHOOKS_SECRET_KEY", webhookKey);
                env.put("ZIGGURAT_EVENTS_OPERATORS", Long.toString(OPERATOR_ID));
                // The tests' receivers listen on 127.0.0.1 (WebhooksTest); every other private address stays refused.
                env.put("ZIGGURAT_EVENTS_WEBHOOKS_ALLOWED_NETWORKS", "127.0.0.1/32");
                // Retries within seconds here (a receiver down for a minute is back within 5 s), hours in production.
                env.put("ZIGGURAT_EVENTS_WEBHOOKS_POLL", "500ms");
                // Four deliveries under way per replica: more lanes than that are the other replica's (WebhooksTest).
                env.put("ZIGGURAT_EVENTS_WEBHOOKS_CONCURRENCY", "4");
                env.put("ZIGGURAT_EVENTS_WEBHOOKS_FIRST_RETRY", "1s");
                env.put("ZIGGURAT_EVENTS_WEBHOOKS_LONGEST_RETRY", "5s");
                env.put("ZIGGURAT_EVENTS_WEBHOOKS_NOTICE_POLL", "1s");
            }
            default -> {
            }
        }
        List<String> command = TRAINING_JAVA != null && instance.equals(module)
                ? List.of(TRAINING_JAVA, "-XX:AOTCacheOutput=" + jar.resolveSibling(AOT_CACHE),
                        "-XX:+UnlockDiagnosticVMOptions", "-XX:-AOTRecordTraining", "-XX:+UseG1GC",
                        "-Xms32m", "-Xmx256m", "-jar", jar.toString())
                : List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                        "-XX:TieredStopAtLevel=1", "-jar", jar.toString());
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(work.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve(instance + ".log").toFile()));
        builder.environment().putAll(env);
        processes.put(instance, builder.start());
    }

    private void awaitHealthy(String module, String url) throws Exception {
        awaitReady(module, processes.get(module), url, Duration.ofSeconds(120), () -> tail(module));
    }

    /**
     * Polls a process's readiness URL until it answers 200; fails at once when the process exits, and
     * at the deadline otherwise, with what {@code log} says.
     */
    static void awaitReady(String name, Process process, String url, Duration limit, Callable<String> log)
            throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        Instant deadline = Instant.now().plus(limit);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited (" + process.exitValue() + "):\n" + log.call());
            }
            try {
                HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2))
                        .build(), HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException(name + " was not ready within " + limit.toSeconds() + " s:\n" + log.call());
    }

    /**
     * Runs one statement as the database's owner: for what no API does on purpose, such as
     * letting a token's expiry pass without waiting for it.
     */
    public int sql(String statement, Object... parameters) throws SQLException {
        try (Connection admin = asOwner(); var prepared = bound(admin, statement, parameters)) {
            return prepared.executeUpdate();
        }
    }

    private Connection asOwner() throws SQLException {
        return DriverManager.getConnection(server.jdbcUrl(DATABASE), server.user(), server.password());
    }

    private static java.sql.PreparedStatement bound(Connection connection, String statement, Object... parameters)
            throws SQLException {
        var prepared = connection.prepareStatement(statement);
        for (int i = 0; i < parameters.length; i++) {
            prepared.setObject(i + 1, parameters[i]);
        }
        return prepared;
    }

    /** The last lines of a log, for a failure's message; what went wrong reading it, if it could not be read. */
    static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(" + log + " unreadable: " + e + ")";
        }
    }

    /** The number of rows a query finds, read as the database's owner (what no API tells on purpose). */
    public long count(String query, Object... parameters) throws SQLException {
        try (Connection admin = asOwner(); var prepared = bound(admin, "SELECT count(*) FROM (" + query + ") q", parameters)) {
            try (var rows = prepared.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /** Stops every instance of a module as a crash would (no graceful shutdown), for the fault tests. */
    public void kill(String module) throws InterruptedException {
        for (String instance : instancesOf(module)) {
            Process process = processes.get(instance);
            process.destroyForcibly();
            process.waitFor();
        }
    }

    /**
     * Stops one instance as Kubernetes does in a rolling update (SIGTERM: readiness goes down,
     * in-flight requests finish), starts it again on its port, and waits until it is ready.
     */
    public void restartGracefully(String instance) throws Exception {
        Process process = processes.get(instance);
        process.destroy();
        if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
            throw new IllegalStateException(instance + " did not stop within 30 s of SIGTERM");
        }
        launch(instance, keys, passwords);
        awaitReady(instance);
    }

    /**
     * Starts the stopped instances of a module again on their ports, and waits until they are ready
     * and the balancer sends requests to them again. A ready instance is back in HAProxy's rotation
     * only at its next check (every 500 ms); a test that called the module at once through the
     * gateway met HAProxy's 503 (seen in CI, ReplicasTest's import after both replicas died), as a
     * caller would meet one until Kubernetes adds a ready pod to its Service.
     */
    public void restart(String module) throws Exception {
        for (String instance : instancesOf(module)) {
            if (!processes.get(instance).isAlive()) {
                launch(instance, keys, passwords);
            }
        }
        for (String instance : instancesOf(module)) {
            awaitReady(instance);
        }
        awaitReady(module + " behind the balancer", processes.get(module),
                "http://127.0.0.1:" + fronts.get(module) + "/q/health/ready", Duration.ofSeconds(30), () -> tail(module));
    }

    static List<String> instancesOf(String module) {
        return List.of(module, module + "-2");
    }

    private void awaitReady(String instance) throws Exception {
        int port = managementPorts.getOrDefault(instance, ports.get(instance));
        awaitHealthy(instance, "http://127.0.0.1:" + port + "/q/health/ready");
    }

    String tail(String module) {
        try {
            List<String> lines = Files.readAllLines(logs.resolve(module + ".log"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    /** The SMTP server that directory-service's replicas send to. */
    MailServer mail() {
        return mail;
    }

    private void stop() {
        processes.values().forEach(Process::destroy);
        processes.values().forEach(Stack::awaitExit);
        if (mail != null) {
            mail.stop();
        }
        if (balancer != null) {
            balancer.stop();
        }
        if (pooler != null) {
            pooler.stop();
        }
    }

    /** A program from the OS packages: the one {@code variable} names, else the first candidate installed. */
    static String osProgram(String variable, List<String> candidates, String missing) {
        return org.ziggurat.platform.testing.OsPrograms.find(variable, candidates, missing);
    }

    /** Waits up to 10 s for a process asked to stop (2 minutes when it writes its AOT cache), then kills it. */
    static void awaitExit(Process p) {
        try {
            if (!p.waitFor(TRAINING_JAVA == null ? 10 : 120, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** A free port below the kernel's ephemeral range ({@link org.ziggurat.platform.testing.FreePorts}). */
    static int freePort() throws IOException {
        return org.ziggurat.platform.testing.FreePorts.belowEphemeral();
    }

    static byte[] randomBytes(int n) {
        byte[] bytes = new byte[n];
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }

    static String random(int n) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(randomBytes(n)).replace('-', 'a').replace('_', 'b');
    }
}
