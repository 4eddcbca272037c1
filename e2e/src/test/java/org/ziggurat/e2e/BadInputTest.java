package org.ziggurat.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Thousands of malformed, oversized, wrongly typed and hostile requests to every operation of the
 * gateway's merged OpenAPI document: no 5xx, no stack trace or internal name in any answer, and
 * every table of every service holds what it held before. Seeded, so a failure replays
 * ({@code -Dziggurat.fuzz.seed=...}).
 */
class BadInputTest {

    static final long SEED = Long.getLong("ziggurat.fuzz.seed", 20261122L);
    static final int ROUNDS = Integer.getInteger("ziggurat.fuzz.rounds", 50);
    static final Pattern LEAK = Pattern.compile("Exception|\\tat |org\\.ziggurat\\.|io\\.vertx|io\\.quarkus|java\\.lang\\."
            + "|SQLState|PgException|relation \"|syntax error at|jakarta\\.|com\\.fasterxml");
    /** Tables that rightly change on refused input: failed sign-ins are counted. */
    static final List<String> CHANGE_ON_REFUSAL = List.of("directory.login_throttle");

    static final String[] HOSTILE_SEGMENTS = {"..", "%2e%2e", "%2E%2E%2F%2E%2E", "%00", "a%00b", "-1", "0",
            "99999999999999999999999", "1e309", "NaN", "%20", "%C0%AF", "%E2%80%AE", "%F0%9F%98%80", "x".repeat(3000),
            "%3Cscript%3E", "%27%20OR%201%3D1--", "%0d%0aSet-Cookie:%20x=y", "~", "%5C..%5C", "null", "true", "[]", "%7B%7D"};
    static final String[] HOSTILE_VALUES = {"", "-1", "0", "1e309", "99999999999999999999", "NaN", "\u0000", "\u202e",
            "' OR 1=1--", "<script>alert(1)</script>", "x".repeat(10000), "\r\nX-Injected: 1", "../../etc/passwd", "[]",
            "{}", "2026-13-45T99:99:99Z", "😀", "%", "*", "**", "true"};
    static final String[] BODIES = {"{", "[", "]", "{\"a\":", "null", "\"text\"", "12", "1e999999", "-0", "[]",
            "{\"username\": 12, \"password\": [], \"email\": {}}", "{\"name\": null, \"labels\": \"x\", \"broader\": 5}",
            "{\"note\": \"\\u0000\", \"kind\": \"Explosion\", \"commits\": {}}", "{\"status\": [\"Stable\"], \"labels\": [{}]}",
            "{\"redirect_uris\": \"javascript:alert(1)\", \"name\": \"" + "n".repeat(5000) + "\"}",
            "{\"visibility\": \"secret\", \"role\": \"owner\", \"state\": \"superuser\"}",
            "[".repeat(5000) + "]".repeat(5000), "{\"a\":".repeat(2000) + "1" + "}".repeat(2000),
            "{\"per_page\": 1e400, \"id\": 18446744073709551616}", "\uFEFF{\"x\": 1}", "{\"x\": \"\uD800\"}"};
    static final String[] CONTENT_TYPES = {"application/json", "text/plain", "application/xml", "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=xyz", "application/json; charset=latin-9", "*/*", "application/merge-patch+json",
            "text/turtle", "application/ld+json", ""};

    /** A problem document's instance: the path as the caller sent it, under the public prefix. */
    static final java.util.regex.Pattern INSTANCE = java.util.regex.Pattern.compile("\"instance\"\\s*:\\s*\"([^\"]*)\"");

    /**
     * The path has a ".." segment (plain or percent-encoded): the gateway resolves it first, and
     * the path it answers for may lie outside the public prefix.
     */
    static boolean climbsOut(String pathAndQuery) {
        String path = pathAndQuery.split("\\?", 2)[0].toLowerCase(java.util.Locale.ROOT).replace("%2e", ".");
        return java.util.Arrays.asList(path.split("/")).contains("..");
    }

    /** A path the server normalises or refuses before any route: an empty or "." segment, or an encoded slash, dot, backslash, NUL or space. */
    static boolean normalised(String pathAndQuery) {
        String path = pathAndQuery.split("\\?", 2)[0];
        String lower = path.toLowerCase(java.util.Locale.ROOT);
        return path.contains("//") || path.endsWith("/") || lower.contains("%2f") || lower.contains("%2e")
                || lower.contains("%5c") || lower.contains("%00") || java.util.Arrays.asList(path.split("/")).contains(".")
                || lower.contains("%20");
    }

    record Operation(String method, String path, List<String> queryParams) {
    }

    @Test
    void nothingBreaksAndNothingChanges() throws Exception {
        Fixture fixture = new Fixture();
        List<Operation> operations = operations();
        assertTrue(operations.size() > 50, "the merged OpenAPI document lists " + operations.size() + " operations");
        Map<String, String> before = rowCounts();
        HttpClient http = client();
        Random random = new Random(SEED);
        List<String> problems = new ArrayList<>();
        List<String> accepted = new ArrayList<>();
        String publicPrefix = URI.create(Platform.api()).getPath().replaceAll("/$", "");
        int sent = 0;
        String previous = "";
        for (Operation op : operations) {
            for (int round = 0; round < ROUNDS; round++) {
                Request r = fixture.request(op, random);
                HttpRequest.Builder builder;
                try {
                    builder = HttpRequest.newBuilder(URI.create(Platform.api() + r.pathAndQuery())).timeout(Duration.ofSeconds(20));
                } catch (IllegalArgumentException notAUri) {
                    continue; // the raw-socket test sends what no URI can hold
                }
                if (r.authorization() != null) {
                    try {
                        builder.header("Authorization", r.authorization());
                    } catch (IllegalArgumentException notAHeader) {
                        continue; // the raw-socket test sends header values this client refuses
                    }
                }
                if (r.contentType() != null && !r.contentType().isEmpty()) {
                    builder.header("Content-Type", r.contentType());
                }
                builder.method(op.method().toUpperCase(), r.body() == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(r.body()));
                String where = op.method().toUpperCase() + " " + r.pathAndQuery().substring(0, Math.min(200, r.pathAndQuery().length()))
                        + " [" + r.contentType() + ", body " + (r.body() == null ? 0 : r.body().length) + " bytes]";
                HttpResponse<String> answer;
                try {
                    answer = http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
                } catch (java.io.IOException e) {
                    if (r.pathAndQuery().length() > 4000) {
                        // Refused for its request line (414) and closed while the client was still
                        // sending its body: the client cannot read that answer, and needs none.
                        http = client();
                        continue;
                    }
                    problems.add("no answer to " + where + ": " + e + " (after " + previous + ")");
                    continue;
                }
                previous = answer.statusCode() + " to " + where;
                sent++;
                if (answer.statusCode() == 414 || answer.statusCode() == 431) {
                    // The HTTP server (Vert.x) refuses an oversized request line or header block and
                    // closes the connection without saying so: a new client, as a careful one would.
                    http = client();
                }
                if (answer.statusCode() < 300 && !op.method().equalsIgnoreCase("get")) {
                    accepted.add(answer.statusCode() + " to " + where);
                }
                if (answer.statusCode() >= 500) {
                    problems.add(answer.statusCode() + " for " + where + ": " + clip(answer.body()));
                }
                // Whatever the input, the answer is one the OpenAPI document describes: the answers of
                // the operation the request names. Not checked: a path that climbs out or whose
                // segments the gateway normalises (it answers for another path than the one sent),
                // the HTTP server's own bodiless refusals of what it cannot decode, and its refusals of a
                // request line past its limit (4096 bytes), which come before any route.
                boolean forTheOperation = !climbsOut(r.pathAndQuery()) && !normalised(r.pathAndQuery())
                        && r.pathAndQuery().length() < 4000
                        && !(answer.body().isEmpty() && answer.headers().firstValue("Content-Type").isEmpty());
                String offContract = !forTheOperation ? "" : ContractCheck.answerProblems(op.method().toUpperCase(),
                        answer.uri(), answer.request().headers().map(), answer.statusCode(), answer.headers().map(), answer.body());
                if (!offContract.isEmpty()) {
                    problems.add("an answer outside the OpenAPI document: " + offContract);
                }
                if (LEAK.matcher(answer.body()).find()) {
                    problems.add("internals in the answer to " + where + ": " + clip(answer.body()));
                }
                java.util.regex.Matcher instance = INSTANCE.matcher(answer.body());
                if (instance.find() && !climbsOut(r.pathAndQuery()) && !(instance.group(1) + "/").startsWith(publicPrefix + "/")) {
                    // Whoever refused it (the gateway or a service), the problem names the path the caller used.
                    problems.add("instance " + instance.group(1) + " is not a public path, for " + where);
                }
            }
        }
        assertTrue(problems.isEmpty(), sent + " requests (seed " + SEED + "), " + problems.size() + " problems:\n"
                + String.join("\n", problems.subList(0, Math.min(400, problems.size()))));
        assertTrue(sent > 2000, "only " + sent + " requests were sent");
        // Some hostile requests are valid after all (an empty PATCH of one's profile, a document
        // accepted as an import job): what each accepted write may change is named below; every
        // other row of every table must be exactly as before.
        java.util.Set<String> changedByAccepted = new java.util.TreeSet<>();
        for (String write : accepted) {
            String table = tableChangedBy(write);
            if (table == null) {
                problems.add("an accepted write the test cannot account for: " + write);
            } else {
                changedByAccepted.addAll(List.of(table.split(",")));
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        Map<String, String> after = rowCounts();
        before.keySet().removeAll(changedByAccepted);
        after.keySet().removeAll(changedByAccepted);
        assertEquals(before, after, "refused requests changed data (accepted writes: " + accepted + ")");
    }

    @Test
    void malformedRequestLinesAndHeadersAreRefusedCleanly() throws Exception {
        URI api = URI.create(Platform.api());
        String[] raw = {
                "GET /api/people/%ZZ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /api/people/a%00b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /api/../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /api/people HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20000) + "\r\nConnection: close\r\n\r\n",
                "POST /api/people HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{\"a\"",
                "POST /api/people HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\nConnection: close\r\n\r\n0\r\n\r\n",
                "GET /api/people?per_page=1&per_page=2&page=1&page=x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "BREW /api/people HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /api/user HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \u0001\u0002\r\nConnection: close\r\n\r\n"};
        for (String request : raw) {
            try (Socket socket = new Socket(api.getHost(), api.getPort())) {
                socket.setSoTimeout(10_000);
                OutputStream out = socket.getOutputStream();
                out.write(request.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                // The client is done: a request that promised more body ends here, as a broken client's would.
                socket.shutdownOutput();
                InputStream in = socket.getInputStream();
                String answer;
                try {
                    answer = new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8);
                } catch (java.net.SocketTimeoutException e) {
                    throw new AssertionError("no answer within 10 s to " + request.substring(0, Math.min(80, request.indexOf('\r'))));
                }
                String status = answer.isEmpty() ? "(closed)" : answer.substring(0, answer.indexOf('\r') > 0 ? answer.indexOf('\r') : answer.length());
                String what = request.substring(0, Math.min(80, request.indexOf('\r')));
                assertTrue(answer.isEmpty() || status.matches("HTTP/1\\.1 [1-4][0-9][0-9].*"), what + " answered " + status);
                assertTrue(!LEAK.matcher(answer).find(), what + " leaked internals: " + clip(answer));
            }
        }
    }

    static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    }

    record Request(String pathAndQuery, String authorization, String contentType, byte[] body) {
    }

    /** Real things to aim at (a person, an organization, a scheme, a concept, an application, an event) and a way to miss them. */
    static final class Fixture {
        final Platform.Person person = Platform.signUp("fuzz");
        final String token = Platform.accessToken(person, "user", "write", "update", "admin");
        final Map<String, String> valid = new TreeMap<>();

        Fixture() {
            String as = person.username();
            int org = Platform.as(token).contentType("application/json")
                    .body(Map.of("name", "fuzz-" + System.nanoTime() % 100000, "display_name", "Fuzz", "visibility", "public"))
                    .post("/organizations").then().statusCode(201).extract().path("id");
            Platform.as(token).contentType("application/json").body(Map.of("slug", "targets", "title", "Targets"))
                    .post("/" + as + "/vocab/schemes").then().statusCode(201);
            String concept = Platform.as(token).contentType("application/json")
                    .body(Map.of("labels", List.of(Map.of("type", "Preferred", "body", "Target", "language", "en"))))
                    .post("/" + as + "/vocab/schemes/targets/concepts").then().statusCode(201).extract().path("concepts[0].id");
            OAuthJourneyTest.App app = OAuthJourneyTest.application(token, "http://127.0.0.1:9/callback");
            int appId = Platform.as(token).get("/applications").then().extract().path("find { it.client_id == '"
                    + app.id().getValue() + "' }.id");
            int event = Platform.as(token).contentType("application/json").body(Map.of("note", "target"))
                    .post("/" + as + "/repositories/targets/data/events").then().statusCode(201).extract().path("id");
            valid.put("namespace", as);
            valid.put("username", as);
            valid.put("slug", "targets");
            valid.put("repository", "targets");
            valid.put("id", "");  // depends on the path: filled in request()
            valid.put("org", Integer.toString(org));
            valid.put("concept", concept);
            valid.put("app", Integer.toString(appId));
            valid.put("event", Integer.toString(event));
            valid.put("userId", Long.toString(person.id()));
            valid.put("orgId", Integer.toString(org));
            valid.put("clientId", app.id().getValue());
            valid.put("code", "zac_" + "A".repeat(43));
        }

        String validId(String path) {
            if (path.startsWith("/organizations") || path.startsWith("/user/memberships")) {
                return valid.get("org");
            }
            if (path.contains("/concepts/")) {
                return valid.get("concept");
            }
            if (path.startsWith("/applications")) {
                return valid.get("app");
            }
            if (path.contains("/data/events/")) {
                return valid.get("event");
            }
            return "1";
        }

        Request request(Operation op, Random random) {
            boolean destructive = op.method().equals("delete") || op.path().endsWith("/secret");
            int authChoice = random.nextInt(4);
            String authorization = switch (authChoice) {
                case 0 -> null;
                case 1 -> "Bearer zat_" + "Q".repeat(43);
                case 2 -> "Bearer " + pick(random, HOSTILE_VALUES).replace("\r", "").replace("\n", "").replace("\u0000", "");
                default -> "Bearer " + token;
            };
            boolean validAuth = authChoice == 3;
            StringBuilder path = new StringBuilder();
            boolean allValid = true;
            for (String segment : op.path().split("/")) {
                if (segment.isEmpty()) {
                    continue;
                }
                path.append('/');
                if (segment.startsWith("{")) {
                    String name = segment.substring(1, segment.length() - 1);
                    boolean hostile = random.nextInt(3) == 0;
                    if (hostile || (destructive && validAuth)) {
                        allValid = false;
                        path.append(pick(random, HOSTILE_SEGMENTS));
                    } else {
                        path.append(name.equals("id") ? validId(op.path()) : valid.getOrDefault(name, "1"));
                    }
                } else {
                    path.append(segment);
                }
            }
            StringBuilder query = new StringBuilder();
            List<String> params = new ArrayList<>(op.queryParams());
            params.addAll(List.of("page", "per_page", "since", "q"));
            int n = random.nextInt(4);
            for (int i = 0; i < n; i++) {
                String name = pick(random, params.toArray(String[]::new));
                query.append(query.length() == 0 ? '?' : '&').append(name).append('=')
                        .append(URLEncoder.encode(pick(random, HOSTILE_VALUES), StandardCharsets.UTF_8));
                if (random.nextBoolean()) {
                    query.append('&').append(name).append("=1"); // duplicated
                }
            }
            byte[] body = null;
            String contentType = null;
            if (!op.method().equals("get") && !op.method().equals("delete") || random.nextInt(5) == 0) {
                contentType = pick(random, CONTENT_TYPES);
                int kind = random.nextInt(10);
                if (kind == 0) {
                    body = new byte[] {(byte) 0xC3, (byte) 0x28, '{', (byte) 0xFF, (byte) 0xFE};
                } else if (kind == 1) {
                    body = ("{\"x\": \"" + "y".repeat(2_000_000) + "\"}").getBytes(StandardCharsets.UTF_8);
                } else if (kind == 2) {
                    body = ("grant_type=" + pick(random, HOSTILE_VALUES) + "&grant_type=password&username=&password=%00")
                            .getBytes(StandardCharsets.UTF_8);
                } else {
                    body = pick(random, BODIES).getBytes(StandardCharsets.UTF_8);
                }
            }
            if (allValid && validAuth && !op.method().equals("get") && body == null) {
                body = "{".getBytes(StandardCharsets.UTF_8); // a well-formed write would not be bad input
                contentType = "application/json";
            }
            return new Request(path + query.toString(), authorization, contentType, body);
        }
    }

    static List<Operation> operations() throws Exception {
        // The merged document once whole at every gateway (a gateway answers 503 until it is).
        JsonNode doc = new ObjectMapper().readTree(ContractCheck.document());
        List<Operation> ops = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = doc.path("paths").fields(); paths.hasNext(); ) {
            var path = paths.next();
            for (String method : List.of("get", "post", "put", "patch", "delete")) {
                JsonNode op = path.getValue().path(method);
                if (op.isMissingNode() || path.getKey().endsWith("/stream")) {
                    continue; // an event stream stays open by design; its own tests cover bad input
                }
                List<String> query = new ArrayList<>();
                op.path("parameters").forEach(p -> {
                    if (p.path("in").asText().equals("query")) {
                        query.add(p.path("name").asText());
                    }
                });
                ops.add(new Operation(method, path.getKey(), query));
            }
        }
        return ops;
    }

    /**
     * The tables (comma-separated) an accepted write of the fuzzer may change ("-": none that is compared), or
     * null for a write the test does not expect to pass.
     */
    static String tableChangedBy(String write) {
        String request = write.replaceFirst("^\\d+ to ", "");
        if (request.matches("PATCH /applications/\\d+([?\\s].*)?")) {
            return "auth.application";
        }
        if (request.matches("PATCH /user([?\\s].*)?")) {
            return "directory.person";
        }
        if (request.matches("PATCH /organizations/\\d+([?\\s].*)?")) {
            return "directory.organization"; // an object naming no field it knows: its updated_at moves
        }
        if (request.matches("PATCH /[^/]+/vocab/schemes/[^/?\\s]+([?\\s].*)?")) {
            return "vocab.scheme"; // as for organizations: an object naming no field it knows, updated_at moves
        }
        if (request.matches("PATCH /[^/]+/vocab/schemes/[^/?\\s]+/concepts/[^/?\\s]+([?\\s].*)?")) {
            return "vocab.concept,vocab.scheme"; // as for schemes: a known-nothing object; its updated_at and the scheme's revision move
        }
        if (request.matches("POST /user/email/verification-mails([?\\s].*)?")) {
            // Asks for a new link (the address is not confirmed): it takes no body, so any body is one.
            return "directory.email_verification,directory.mail_outbox";
        }
        if (request.matches("POST /oauth/logout([?\\s].*)?")) {
            return "-"; // signing out without a session (the fuzzer sends no cookie): the signed-out page, nothing changes
        }
        if (request.matches("POST /account/password/recovery([?\\s].*)?")) {
            return "-"; // a hostile login names nobody: the same page, and only the address's count (login_throttle) moves
        }
        if (request.matches("POST /[^/]+/vocab/schemes/[^/]+/import([?\\s].*)?")) {
            return "-"; // a job whose document then fails, kept as the record of why: only jobs that did not fail count
        }
        return null;
    }

    /** Each table's rows, as a count and a digest of their contents. */
    static Map<String, String> rowCounts() throws Exception {
        var server = Stack.get().server;
        Map<String, String> counts = new TreeMap<>();
        try (Connection c = DriverManager.getConnection(server.jdbcUrl(Stack.DATABASE), server.user(), server.password());
                Statement s = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT schemaname || '.' || tablename FROM pg_tables "
                    + "WHERE schemaname IN ('auth', 'directory', 'vocab', 'events') AND tablename NOT LIKE 'flyway%'")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            for (String table : tables) {
                if (CHANGE_ON_REFUSAL.contains(table)) {
                    continue;
                }
                // An import of a broken document is accepted (202) and fails on its job, which stays
                // as the record of why: only imports that did not fail count as changed data.
                String where = table.equals("vocab.import_job") ? " WHERE state <> 'failed'" : "";
                if (!where.isEmpty()) {
                    awaitImportsSettled(s);
                }
                // Mail the journeys before queued is sent meanwhile (its attempts and sent_at move):
                // compared once sent, so that only a mail that a request queued shows as a change.
                if (table.equals("directory.mail_outbox")) {
                    awaitOutboxSent(s);
                }
                // The audit stream's outboxes likewise: relayed before the events they carry are compared.
                if (table.equals("events.audit_event")) {
                    awaitNone(s, "SELECT count(*) FROM auth.audit_outbox WHERE done_at IS NULL");
                    awaitNone(s, "SELECT count(*) FROM directory.peer_delivery WHERE kind = 'audit' AND done_at IS NULL");
                }
                // Webhook deliveries: what a request queues is a row; its attempts, state and log are the
                // workers' (a receiver a journey left may still be tried), never a request's.
                // The audit outboxes are relayed in the background: what they carry is compared where it
                // comes from (applications, consent, memberships, the security log) and where it goes.
                if (table.equals("events.webhook_attempt") || table.equals("auth.audit_outbox")) {
                    continue;
                }
                if (table.equals("directory.peer_delivery")) {
                    where = " WHERE kind <> 'audit'";
                }
                String columns = table.equals("events.webhook_delivery")
                        ? "(t.id, t.subscription_id, t.event_id, t.audit_event_id)" : "t";
                // The rows themselves, not their number: an update changes the digest too.
                try (ResultSet rs = s.executeQuery("SELECT count(*) || ' rows, ' || coalesce(md5(string_agg(" + columns
                        + "::text, '|' ORDER BY " + columns + "::text)), '-') FROM " + table + " t" + where)) {
                    rs.next();
                    counts.put(table, rs.getString(1));
                }
            }
        }
        return counts;
    }

    static void awaitOutboxSent(Statement s) {
        awaitNone(s, "SELECT count(*) FROM directory.mail_outbox WHERE sent_at IS NULL");
    }

    static void awaitImportsSettled(Statement s) {
        awaitNone(s, "SELECT count(*) FROM vocab.import_job WHERE state IN ('queued', 'running')");
    }

    /** Waits (up to 30 s, as before) until the count {@code countSql} answers is 0; then the comparison goes on. */
    static void awaitNone(Statement s, String countSql) {
        try {
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                    .pollInterval(java.time.Duration.ofMillis(100)).until(() -> {
                        try (ResultSet rs = s.executeQuery(countSql)) {
                            rs.next();
                            return rs.getLong(1) == 0;
                        }
                    });
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            // As before: compared as they are; a difference then shows in the assertion.
        }
    }

    static String pick(Random random, String[] options) {
        return options[random.nextInt(options.length)];
    }

    static String clip(String body) {
        return body.length() > 300 ? body.substring(0, 300) + "…" : body;
    }
}
