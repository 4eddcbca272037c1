package org.ziggurat.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Keycloak 26.4 (the distribution from Maven Central, unpacked by the build) as the upstream
 * OpenID Connect provider that people sign in with, as an institution's proxy would be: started
 * once per run on the machine's second JDK, on the e2e PostgreSQL (a database of its own, made
 * fresh), on the port the stack gave auth-service. Two realms: {@code research}, which auth-service
 * knows (its client, a person "ada" with an ORCID iD attribute released as the claim {@code orcid},
 * REFEDS assurance released as {@code eduperson_assurance}), and {@code other}, an issuer
 * auth-service does not know, with a client of the same id: it answers in research's place in the
 * mix-up test.
 */
final class KeycloakServer {

    static final String REALM = "research";
    static final String OTHER_REALM = "other";
    static final String CLIENT_ID = "ziggurat";
    /** ada's ORCID iD (each person at Keycloak has one of their own: an iD is one person's here). */
    static final String ORCID = "0000-0002-1825-0097";
    /** The provider's id in the stack's configuration: its redirect URI ends with it. */
    static final String PROVIDER = "keycloak";

    /** The ORCID iD of a person at Keycloak: ada's {@link #ORCID}; everyone else one made from their name, checksum and all. */
    static String orcidOf(String username) {
        if (username.equals("ada")) {
            return ORCID;
        }
        String digits = String.format("%015d", Math.floorMod((long) username.hashCode(), 1_000_000_000_000_000L));
        int total = 0;
        for (int i = 0; i < 15; i++) {
            total = (total + (digits.charAt(i) - '0')) * 2;
        }
        int check = (12 - total % 11) % 11;
        String all = digits + (check == 10 ? "X" : Integer.toString(check));
        return all.substring(0, 4) + "-" + all.substring(4, 8) + "-" + all.substring(8, 12) + "-" + all.substring(12);
    }
    static final String ASSURANCE = "https://refeds.org/assurance/IAP/medium";
    private static final String DATABASE = "keycloak_e2e";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static KeycloakServer running;

    private final Stack stack;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String adminPassword = Stack.random(24);
    private Process process;

    private KeycloakServer(Stack stack) {
        this.stack = stack;
    }

    static synchronized KeycloakServer get() {
        if (running == null) {
            KeycloakServer server = new KeycloakServer(Stack.get());
            Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
            try {
                server.start();
            } catch (Exception e) {
                server.stop();
                throw new IllegalStateException("Keycloak did not start: " + e.getMessage(), e);
            }
            running = server;
        }
        return running;
    }

    String base() {
        return "http://127.0.0.1:" + stack.keycloakPort;
    }

    String issuer(String realm) {
        return base() + "/realms/" + realm;
    }

    private void start() throws Exception {
        Path home = Path.of(System.getProperty("ziggurat.keycloak.home", "target/keycloak/keycloak-26.4.5"));
        if (!Files.isExecutable(home.resolve("bin/kc.sh"))) {
            throw new IllegalStateException(home + " has no Keycloak: the e2e build unpacks it (./mvnw verify)");
        }
        String java = Stack.osProgram("ZIGGURAT_KEYCLOAK_JAVA", javas(), "a JDK 21 or newer for Keycloak (the machine's Temurin 25)");
        Path javaHome = Path.of(java).getParent().getParent();
        var server = stack.server;
        try (Connection admin = DriverManager.getConnection(server.jdbcUrl("postgres"), server.user(), server.password());
                Statement sql = admin.createStatement()) {
            sql.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
            sql.execute("CREATE DATABASE " + DATABASE);
        }
        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/kc.sh").toString(), "start-dev",
                "--http-host=127.0.0.1", "--http-port=" + stack.keycloakPort, "--http-management-port=" + Stack.freePort(),
                "--db=postgres", "--db-url=" + server.jdbcUrl(DATABASE), "--db-username=" + server.user(),
                "--db-password=" + (server.password() == null ? "" : server.password()), "--cache=local")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(stack.logsDirectory().resolve("keycloak.log").toFile()));
        builder.environment().put("JAVA_HOME", javaHome.toString());
        builder.environment().put("PATH", javaHome.resolve("bin") + ":" + System.getenv("PATH"));
        builder.environment().put("KC_BOOTSTRAP_ADMIN_USERNAME", "admin");
        builder.environment().put("KC_BOOTSTRAP_ADMIN_PASSWORD", adminPassword);
        process = builder.start();
        org.awaitility.Awaitility.await("Keycloak answering").atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(500))
                .until(this::answers);
        String admin = adminToken();
        realm(admin, REALM, List.of(new User("ada", "Ada", "Lovelace", "ada@uni.example", "ada at the institution")),
                true);
        realm(admin, OTHER_REALM, List.of(new User("mallory", "Mal", "Lory", "mallory@elsewhere.example",
                "mallory at the other realm")), false);
    }

    /** Whether Keycloak answers; an ended process fails the wait at once. */
    private boolean answers() throws InterruptedException {
        if (!process.isAlive()) {
            throw new IllegalStateException("Keycloak ended at start; see " + stack.logsDirectory().resolve("keycloak.log"));
        }
        try {
            return http.send(HttpRequest.newBuilder(URI.create(base() + "/realms/master")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException notYet) {
            return false; // not listening yet
        }
    }

    /** A person at Keycloak: their username, names, address (verified) and password. */
    record User(String username, String firstName, String lastName, String email, String password) {
    }

    /** Adds a person to the research realm. */
    void addUser(User user) throws Exception {
        createUser(adminToken(), REALM, user);
    }

    private void realm(String admin, String name, List<User> users, boolean researchClaims) throws Exception {
        send(admin, "POST", "/admin/realms", Map.of("realm", name, "enabled", true));
        // Keycloak 26 keeps only the attributes its user profile declares: the ORCID iD is one more.
        JsonNode profile = JSON.readTree(send(admin, "GET", "/admin/realms/" + name + "/users/profile", null));
        ((ObjectNode) profile).put("unmanagedAttributePolicy", "ENABLED");
        send(admin, "PUT", "/admin/realms/" + name + "/users/profile", profile);
        // Each provider has its own redirect URI here (RFC 9700 §4.4.2): the provider's id at the end.
        String redirect = stack.api + "/account/federation/callback/" + PROVIDER;
        List<Map<String, Object>> mappers = researchClaims ? List.of(
                Map.of("name", "orcid", "protocol", "openid-connect", "protocolMapper", "oidc-usermodel-attribute-mapper",
                        "config", Map.of("user.attribute", "orcid", "claim.name", "orcid", "jsonType.label", "String",
                                "id.token.claim", "true", "userinfo.token.claim", "true", "access.token.claim", "false")),
                Map.of("name", "assurance", "protocol", "openid-connect", "protocolMapper", "oidc-hardcoded-claim-mapper",
                        "config", Map.of("claim.name", "eduperson_assurance", "claim.value",
                                "[\"https://refeds.org/assurance\",\"" + ASSURANCE + "\"]", "jsonType.label", "JSON",
                                "id.token.claim", "true", "userinfo.token.claim", "true", "access.token.claim", "false")))
                : List.of();
        send(admin, "POST", "/admin/realms/" + name + "/clients", Map.of("clientId", CLIENT_ID, "enabled", true,
                "publicClient", false, "secret", stack.keycloakClientSecret, "standardFlowEnabled", true,
                "directAccessGrantsEnabled", false, "redirectUris", List.of(redirect), "protocolMappers", mappers,
                "attributes", Map.of("pkce.code.challenge.method", "S256")));
        for (User user : users) {
            createUser(admin, name, user);
        }
    }

    private void createUser(String admin, String realm, User user) throws Exception {
        send(admin, "POST", "/admin/realms/" + realm + "/users", Map.of("username", user.username(), "enabled", true,
                "firstName", user.firstName(), "lastName", user.lastName(), "email", user.email(), "emailVerified", true,
                "attributes", Map.of("orcid", List.of(orcidOf(user.username()))),
                "credentials", List.of(Map.of("type", "password", "value", user.password(), "temporary", false))));
    }

    private String adminToken() throws Exception {
        String form = "grant_type=password&client_id=admin-cli&username=admin&password="
                + URLEncoder.encode(adminPassword, StandardCharsets.UTF_8);
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(base() + "/realms/master/protocol/openid-connect/token"))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
            throw new IllegalStateException("Keycloak's admin token: " + answer.statusCode() + " " + answer.body());
        }
        return JSON.readTree(answer.body()).get("access_token").asText();
    }

    private String send(String admin, String method, String path, Object body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + path)).header("Authorization", "Bearer " + admin);
        if (body != null) {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() >= 300) {
            throw new IllegalStateException("Keycloak " + method + " " + path + ": " + answer.statusCode() + " " + answer.body());
        }
        return answer.body();
    }

    private static List<String> javas() {
        try (var jvms = Files.list(Path.of("/usr/lib/jvm"))) {
            return jvms.map(Path::toString).filter(p -> p.matches(".*/(temurin|jdk|java)-?(2[1-9]|[3-9][0-9]).*"))
                    .sorted(java.util.Comparator.reverseOrder()).map(p -> p + "/bin/java").toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    void stop() {
        if (process != null && process.isAlive()) {
            process.destroy();
            Stack.awaitExit(process);
        }
    }
}
