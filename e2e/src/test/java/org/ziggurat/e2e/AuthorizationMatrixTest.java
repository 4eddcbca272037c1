package org.ziggurat.e2e;

import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.e2e.Platform.anonymous;
import static org.ziggurat.e2e.Platform.as;

/**
 * Every public route × every kind of caller, through the gateway to the real services, as
 * {@code e2e/authorization-matrix.md} says (the world the requests run in is described there).
 * Every cell runs, whatever the others gave; the report lists each cell, and the test fails on
 * the first look at it if any cell or the route coverage is wrong.
 */
class AuthorizationMatrixTest {

    static final Path TABLE = Path.of(System.getProperty("user.dir"), "authorization-matrix.md");
    static final Path REPORT = Path.of(System.getProperty("user.dir"), "target", "authorization-matrix-report.md");
    static final String EVERY_SCOPE = "user write update admin";
    static final String REDIRECT = "http://127.0.0.1:9/callback";
    static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z][a-z-]*)}");
    static final String TURTLE = """
            @prefix skos: <http://www.w3.org/2004/02/skos/core#> .
            <https://example.org/matrix> a skos:ConceptScheme .
            <https://example.org/matrix/one> a skos:Concept ; skos:inScheme <https://example.org/matrix> ;
                skos:prefLabel "One"@en .
            """;

    record App(long id, String clientId, String secret) {
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final Map<String, String> world = new HashMap<>();
    private final Map<String, String> tokens = new HashMap<>();
    private final Map<String, String> callerNames = new HashMap<>();
    /** The full token of the caller's person, for what a cell makes in the caller's own name. */
    private final Map<String, String> callerPersonTokens = new HashMap<>();
    private Platform.Person admin;
    private Platform.Person member;
    private String adminToken;
    private App app;

    @Test
    void everyRouteAnswersEveryCallerAsTheTableSays() throws Exception {
        AuthorizationMatrix matrix = AuthorizationMatrix.read(TABLE);
        assertEquals(List.of("anonymous", "stranger", "member", "admin", "no-scope", "refresh", "expired", "revoked",
                "other-client"), matrix.callers(), "the callers this test knows how to be");
        List<String> problems = new ArrayList<>(matrix.coverageProblems(
                JsonPath.from(ContractCheck.document()).getMap("paths")));
        buildTheWorld();

        StringBuilder report = new StringBuilder("# Authorization matrix: what the stack answered\n\n")
                .append("Expected → answered; ✗ marks a cell that differs.\n\n| Method | Path |");
        matrix.callers().forEach(c -> report.append(' ').append(c).append(" |"));
        report.append("\n|---|---|").append("---|".repeat(matrix.callers().size())).append('\n');
        int cells = 0;
        for (AuthorizationMatrix.Row row : matrix.rows()) {
            report.append("| ").append(row.method()).append(" | ").append(row.path()).append(" |");
            for (int i = 0; i < matrix.callers().size(); i++) {
                String caller = matrix.callers().get(i);
                String expected = row.expected().get(i);
                String answered;
                try {
                    answered = answer(row, caller);
                } catch (Exception e) {
                    answered = "error: " + e;
                }
                cells++;
                boolean same = expected.equals(answered);
                report.append(' ').append(same ? expected : "✗ " + expected + " → " + answered).append(" |");
                if (!same) {
                    problems.add("line " + row.line() + ", " + row.method() + " " + row.path() + " as " + caller
                            + ": expected " + expected + ", answered " + answered);
                }
            }
            report.append('\n');
        }
        report.append("\n").append(matrix.rows().size()).append(" routes × ").append(matrix.callers().size())
                .append(" callers = ").append(cells).append(" cells; ").append(matrix.exempt().size())
                .append(" routes outside the matrix.\n\n## Problems\n\n");
        problems.forEach(p -> report.append("- ").append(p).append('\n'));
        Files.createDirectories(REPORT.getParent());
        Files.writeString(REPORT, report);
        System.out.printf("Authorization matrix: %d routes x %d callers = %d cells, %d problems; report: %s%n",
                matrix.rows().size(), matrix.callers().size(), cells, problems.size(), REPORT);
        assertTrue(problems.isEmpty(), problems.size() + " problems (report: " + REPORT + "):\n" + String.join("\n", problems));
    }

    // ------------------------------------------------------------------ one cell

    private String answer(AuthorizationMatrix.Row row, String caller) throws Exception {
        Map<String, String> values = new HashMap<>(world);
        values.put("caller-name", callerNames.getOrDefault(caller, admin.username()));
        values.put("caller-token", callerPersonTokens.getOrDefault(caller, adminToken));
        String path = resolve(row.path(), values);
        String marker = row.marker().isEmpty() ? null : resolve(row.marker(), values);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(Platform.api() + path)).timeout(Duration.ofSeconds(30));
        String token = tokens.get(caller);
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        String body = row.body();
        HttpRequest.BodyPublisher publisher = HttpRequest.BodyPublishers.noBody();
        if (body.startsWith("json ")) {
            request.header("Content-Type", "application/json");
            publisher = HttpRequest.BodyPublishers.ofString(resolve(body.substring(5), values));
        } else if (body.startsWith("form ")) {
            request.header("Content-Type", "application/x-www-form-urlencoded");
            publisher = HttpRequest.BodyPublishers.ofString(form(resolve(body.substring(5), values)));
        } else if (body.equals("png")) {
            request.header("Content-Type", "image/png");
            publisher = HttpRequest.BodyPublishers.ofByteArray(png());
        } else if (body.equals("turtle")) {
            request.header("Content-Type", "text/turtle");
            publisher = HttpRequest.BodyPublishers.ofString(TURTLE);
        } else if (!body.isEmpty()) {
            throw new IllegalStateException("line " + row.line() + ": unknown body " + body);
        }
        HttpResponse<InputStream> response = http.send(request.method(row.method(), publisher).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        String text;
        try (InputStream in = response.body()) {
            // A stream never ends: its status and headers are the answer.
            text = path.endsWith("/stream") ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String offContract = ContractCheck.answerProblems(row.method(), response.uri(), response.request().headers().map(),
                response.statusCode(), response.headers().map(), path.endsWith("/stream") ? null : text);
        if (!offContract.isEmpty()) {
            // A cell that differs from every expectation: the report shows why.
            return response.statusCode() + ", outside the OpenAPI document: " + offContract.replace('\n', ' ');
        }
        String status = Integer.toString(response.statusCode());
        return marker == null || response.statusCode() != 200 ? status : status + (text.contains(marker) ? "+" : "-");
    }

    /** The placeholders of a path or body: the world's, and for {@code fresh-…} and {@code unique} new ones, once per cell. */
    private String resolve(String text, Map<String, String> values) throws Exception {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String value = values.get(name);
            if (value == null) {
                value = fresh(name, values);
                values.put(name, value);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    private String fresh(String name, Map<String, String> values) throws Exception {
        return switch (name) {
            case "unique" -> unique();
            case "fresh-app" -> Long.toString(application(adminToken, "Fresh").id());
            case "caller-app" -> Long.toString(application(values.get("caller-token"), "The caller's").id());
            case "fresh-org" -> {
                long org = organization(adminToken);
                join(org, member);
                yield Long.toString(org);
            }
            case "fresh-person" -> Long.toString(Platform.signUp("fresh").id());
            case "fresh-member" -> {
                Platform.Person person = Platform.signUp("joiner");
                join(Long.parseLong(world.get("org")), person);
                yield Long.toString(person.id());
            }
            case "fresh-accessor" -> {
                long person = Platform.signUp("accessor").id();
                as(adminToken).contentType("application/json").body(Map.of("read", true))
                        .put("/applications/" + app.id() + "/accessors/people/" + person).then().statusCode(201);
                yield Long.toString(person);
            }
            case "fresh-linked-org" -> {
                long org = organization(adminToken);
                as(adminToken).contentType("application/json").body(Map.of("read", true))
                        .put("/applications/" + app.id() + "/accessors/organizations/" + org).then().statusCode(201);
                yield Long.toString(org);
            }
            case "fresh-grant" -> {
                App another = application(adminToken, "Granted");
                Platform.tokenByApiForm(adminToken, admin, another.clientId(), another.secret(),
                        REDIRECT, EVERY_SCOPE);
                yield Long.toString(Platform.grantOf(adminToken, another.clientId()));
            }
            case "fresh-webhook" -> webhook(values.get("org-name"), "", false);
            case "fresh-repo-webhook" -> webhook(values.get("org-name"), "/repositories/r", false);
            case "fresh-delivery" -> delivery(values.get("org-name"), "", world.get("webhook"));
            case "fresh-repo-delivery" -> delivery(values.get("org-name"), "/repositories/r", world.get("repo-webhook"));
            case "fresh-scheme" -> scheme(values.get("org-name"), adminToken);
            case "fresh-concept" -> concept(values.get("org-name"), world.get("scheme"), adminToken);
            default -> throw new IllegalStateException("the matrix names an unknown placeholder {" + name + "}");
        };
    }

    private org.ziggurat.platform.testing.WebhookReceiver webhookReceiver;

    /** The world's webhooks go with their receiver: none is retried after the test. */
    @org.junit.jupiter.api.AfterEach
    void stopTheReceiver() {
        if (webhookReceiver != null) {
            as(adminToken).delete("/" + world.get("org-name") + "/webhooks/" + world.get("webhook")).then().statusCode(204);
            as(adminToken).delete("/" + world.get("org-name") + "/repositories/r/webhooks/" + world.get("repo-webhook")).then()
                    .statusCode(204);
            webhookReceiver.close();
        }
    }

    /** A webhook of the namespace ({@code place} "") or of a repository, to the receiver; its id. */
    private String webhook(String orgName, String place, boolean active) {
        return Integer.toString(as(adminToken).contentType("application/json")
                .body(Map.of("url", webhookReceiver.url("/matrix"), "active", active))
                .post("/" + orgName + place + "/webhooks").then().statusCode(201).extract().<Integer>path("id"));
    }

    /** A delivery of the webhook, delivered: an event recorded, then its delivery once the receiver took it. */
    private String delivery(String orgName, String place, String webhook) {
        int event = as(adminToken).contentType("application/json").body(Map.of("note", "delivered"))
                .post("/" + orgName + "/repositories/r/data/events").then().statusCode(201).extract().path("id");
        String log = "/" + orgName + place + "/webhooks/" + webhook + "/deliveries?state=delivered";
        return org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
            List<Map<String, Object>> delivered = as(adminToken).get(log).then().statusCode(200).extract().path("");
            return delivered.stream().filter(d -> ((Number) d.get("event_id")).intValue() == event)
                    .map(d -> d.get("id").toString()).findFirst().orElse(null);
        }, java.util.Objects::nonNull);
    }

    private static String form(String pairs) {
        List<String> encoded = new ArrayList<>();
        for (String pair : pairs.split("&")) {
            int eq = pair.indexOf('=');
            encoded.add(pair.substring(0, eq) + "=" + URLEncoder.encode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return String.join("&", encoded);
    }

    // ------------------------------------------------------------------ the world

    private void buildTheWorld() throws Exception {
        admin = Platform.signUp("admin");
        member = Platform.signUp("member");
        Platform.Person stranger = Platform.signUp("stranger");
        Platform.Person developer = Platform.signUp("developer");
        adminToken = Platform.accessToken(admin, EVERY_SCOPE.split(" "));
        String strangerToken = Platform.accessToken(stranger, EVERY_SCOPE.split(" "));

        long org = organization(adminToken);
        String orgName = as(adminToken).get("/organizations/" + org).then().statusCode(200).extract().path("name");
        join(org, member);
        app = application(adminToken, "Matrix");
        Platform.tokenByApiForm(adminToken, admin, app.clientId(), app.secret(),
                        REDIRECT, "user write");
        String authorization = Integer.toString(as(adminToken).get("/authorizations/clients/" + app.clientId()).then()
                .statusCode(200).extract().<Integer>path("id"));
        App other = application(Platform.accessToken(developer, "admin"), "Someone else's");
        String otherClientToken = Platform.tokenByApiForm(adminToken, admin, other.clientId(), other.secret(),
                        REDIRECT, EVERY_SCOPE);
        String scheme = scheme(orgName, adminToken);
        String importScheme = scheme(orgName, adminToken);
        String importLocation = as(adminToken).contentType("text/turtle").body(TURTLE)
                .post("/" + orgName + "/vocab/schemes/" + importScheme + "/import").then().statusCode(202)
                .extract().header("Location");
        int event = as(adminToken).contentType("application/json").body(Map.of("note", "the matrix's event"))
                .post("/" + orgName + "/repositories/r/data/events").then().statusCode(201).extract().path("id");

        world.put("org", Long.toString(org));
        world.put("org-name", orgName);
        world.put("admin-name", admin.username());
        world.put("member-id", Long.toString(member.id()));
        world.put("member-name", member.username());
        world.put("app", Long.toString(app.id()));
        world.put("client", app.clientId());
        world.put("client-secret", app.secret());
        world.put("client-b", other.clientId());
        world.put("redirect", REDIRECT);
        world.put("grant", Long.toString(Platform.grantOf(adminToken, other.clientId())));
        world.put("authorization", authorization);
        world.put("scheme", scheme);
        world.put("concept", concept(orgName, scheme, adminToken));
        world.put("import", importLocation.substring(importLocation.lastIndexOf('/') + 1));
        world.put("event", Integer.toString(event));
        world.put("repo", "r");
        // The resource server the stack's configuration names (Stack): its metadata is public.
        world.put("resource-server", "storage");
        // The webhooks of the namespace and of the repository, both to a receiver that accepts:
        // their deliveries are real ones.
        webhookReceiver = new org.ziggurat.platform.testing.WebhookReceiver();
        world.put("webhook", webhook(orgName, "", true));
        world.put("repo-webhook", webhook(orgName, "/repositories/r", true));

        tokens.put("stranger", strangerToken);
        String memberToken = Platform.accessToken(member, EVERY_SCOPE.split(" "));
        tokens.put("member", memberToken);
        tokens.put("admin", adminToken);
        tokens.put("no-scope", Platform.accessToken(admin));
        tokens.put("refresh", Platform.passwordToken(admin, EVERY_SCOPE.split(" ")).getTokens().getRefreshToken().getValue());
        String expired = Platform.accessToken(admin, EVERY_SCOPE.split(" "));
        assertEquals(1, Stack.get().sql("UPDATE auth.token SET expires_at = now() - interval '1 minute' WHERE id = "
                + "(SELECT max(id) FROM auth.token WHERE kind = 'a' AND person_id = ?)", admin.id()));
        tokens.put("expired", expired);
        String revoked = Platform.accessToken(admin, EVERY_SCOPE.split(" "));
        as(revoked).formParam("token", revoked).post("/oauth/revoke").then().statusCode(200);
        tokens.put("revoked", revoked);
        tokens.put("other-client", otherClientToken);
        callerNames.put("stranger", stranger.username());
        callerNames.put("member", member.username());
        callerPersonTokens.put("stranger", strangerToken);
        callerPersonTokens.put("member", memberToken);
    }

    private static String unique() {
        return UUID.randomUUID().toString().substring(0, 8);
    }

    private static App application(String ownerToken, String name) {
        Map<String, Object> created = as(ownerToken).contentType("application/json")
                .body(Map.of("name", name, "redirect_uris", List.of(REDIRECT), "scopes", EVERY_SCOPE))
                .post("/applications").then().statusCode(201).extract().jsonPath().getMap("");
        return new App(((Number) created.get("id")).longValue(), (String) created.get("client_id"),
                (String) created.get("client_secret"));
    }

    private static long organization(String token) {
        return as(token).contentType("application/json").body(Map.of("name", "m" + unique(), "visibility", "private"))
                .post("/organizations").then().statusCode(201).extract().<Integer>path("id");
    }

    /** An invitation by admin, accepted by the person: an active member. */
    private void join(long org, Platform.Person person) {
        as(adminToken).contentType("application/json").body(Map.of("role", "member"))
                .put("/organizations/" + org + "/memberships/" + person.id()).then().statusCode(201);
        as(Platform.accessToken(person, "admin")).contentType("application/json").body(Map.of("state", "active"))
                .patch("/user/memberships/organizations/" + org).then().statusCode(200);
    }




    private static String scheme(String namespace, String token) {
        String slug = "s" + unique();
        as(token).contentType("application/json").body(Map.of("slug", slug, "title", "Matrix"))
                .post("/" + namespace + "/vocab/schemes").then().statusCode(201);
        return slug;
    }

    private static String concept(String namespace, String scheme, String token) {
        return as(token).contentType("application/json").body(Map.of("labels", List.of(Map.of("type", "Preferred",
                        "body", "Concept " + unique(), "language", "en"))))
                .post("/" + namespace + "/vocab/schemes/" + scheme + "/concepts").then().statusCode(201).extract()
                .path("concepts[0].id");
    }

    private static byte[] png() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(new BufferedImage(4, 4, BufferedImage.TYPE_INT_RGB), "png", out);
        return out.toByteArray();
    }
}
