package org.ziggurat.auth;

import org.ziggurat.auth.clients.ClientCredentials;
import org.ziggurat.platform.permissions.UserPermissions;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A test double of directory-service's internal API, held to its contract
 * ({@code InternalApiContract}, which the real service keeps too: DirectoryDoubleContractTest). {@code POST /internal/passwords/verify}: known people answer 200 {user_id,
 * username}, a wrong password 401, the login {@value #THROTTLED} 429 with Retry-After, the login
 * {@value #AWAY} 503, the login {@value #SILENT} no answer at all.
 * People by ids, a person's organizations, and organization-application links, over the
 * people and organizations below (alice is a member of the public "lab"; bob is the admin of
 * the private "vault"; the applications' owner of the tests, 900, is an admin of both; carol
 * belongs nowhere; the private "strict" requires a second factor of its admins 120, who has one,
 * and 121, who has none), and a namespace's rights for those organizations.
 */
public class DirectoryDouble implements QuarkusTestResourceLifecycleManager {

    public static final String THROTTLED = "throttled-person";
    /** A login whose password check the directory answers 503 for, as when its database is away. */
    public static final String AWAY = "directory-away";
    /** A login whose password check the directory never answers: the client's read timeout ends it. */
    public static final String SILENT = "directory-silent";
    public static final Map<String, Person> PEOPLE = Map.ofEntries(
            Map.entry("alice", new Person(101, "alice", "alice password 1")),
            Map.entry("bob", new Person(102, "bob", "bob password 12")),
            Map.entry("carol", new Person(103, "carol", "carol password 3")),
            Map.entry("dora", new Person(104, "dora", "dora password 4")),
            Map.entry("erin", new Person(105, "erin", "erin password 5")),
            Map.entry("fay", new Person(106, "fay", "fay password 6")),
            // gus's account is deleted by PersonDataTest: nobody else may use him.
            Map.entry("gus", new Person(107, "gus", "gus password 7")),
            // hal deletes his account on the account page (AccountProfilePageTest).
            Map.entry("hal", new Person(108, "hal", "hal password 8")),
            // ivy's account is deleted behind her session's back (AccountProfilePageTest).
            Map.entry("ivy", new Person(109, "ivy", "ivy password 9")),
            // jo changes the password through the API (PersonDataTest): signed out here after.
            Map.entry("jo", new Person(110, "jo", "jo password 10")),
            // The platform's operator (ziggurat.auth.operators=990 in the tests).
            Map.entry("opal", new Person(990, "opal", "opal password 0")),
            // kai signs in through a provider, then with his own second factor (FederationFlowTest).
            Map.entry("kai", new Person(111, "kai", "kai password 11")),
            // lee's session grows old before lee adds ways in (RecentSignInTest).
            Map.entry("lee", new Person(112, "lee", "lee password 12")),
            // mia sends many codes at once after one password (SecondFactorSignInTest).
            Map.entry("mia", new Person(113, "mia", "mia password 13")),
            // nia's forms are forged and refused (PageFormsTest): nothing of hers changes.
            Map.entry("nia", new Person(114, "nia", "nia password 14")),
            // pia's account is erased by StatusListTest.
            Map.entry("pia", new Person(115, "pia", "pia password 15")));

    /** The people for whom an authenticator app's enrolment was started ({@code POST /internal/people/:id/factors/totp}). */
    public static final java.util.Set<Long> TOTP_STARTED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** dora, erin, fay, kai, mia and opal (the operator) have a second factor (each test uses one's codes): a TOTP key ({@link #totp}) and recovery codes. */
    public static final java.util.Set<Long> SECOND_FACTOR = java.util.Set.of(104L, 105L, 106L, 111L, 113L, 990L);
    /** How many codes were sent for each person ({@code POST /internal/second-factors/verify}), checked or refused. */
    public static final Map<Long, java.util.concurrent.atomic.AtomicInteger> SECOND_FACTOR_CHECKS =
            new java.util.concurrent.ConcurrentHashMap<>();
    public static final byte[] TOTP_KEY = "dora-and-erin-key-20".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    /** As the real directory: a code is good once, in its step or one either side, after the last accepted step. */
    private final Map<Long, Long> lastStep = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.Set<String> usedRecoveryCodes = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Map<Long, Integer> failures = new java.util.concurrent.ConcurrentHashMap<>();
    /** dora's and erin's recovery codes (each good once). */
    public static final List<String> RECOVERY_CODES = List.of("abcde-fghjk", "bcdef-ghjkm", "cdefg-hjkmn");
    /**
     * A verification link's token for alice's address, good once (as the real one: used, it is
     * 410); every other token is 410.
     */
    public static final String EMAIL_TOKEN = "alice-email-token-0123456789abcdefghijklmnopq";
    private static final java.util.Set<String> USED_EMAIL_TOKENS = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** How many times a verification was asked for (a GET of the page must ask none). */
    public static final java.util.concurrent.atomic.AtomicInteger EMAIL_VERIFICATIONS = new java.util.concurrent.atomic.AtomicInteger();
    /** A recovery link's token for alice, good once; the password "short" is refused as the real one refuses it. */
    public static final String RECOVERY_TOKEN = "alice-recovery-token-0123456789abcdefghijklmn";
    /** A login whose recovery asks the double answers 429, as the real one does for an address that asked too often. */
    public static final String RECOVERY_THROTTLED = "recovery-throttled";
    private static final java.util.Set<String> USED_RECOVERY_TOKENS = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** How many resets were asked for (a GET of the page must ask none). */
    public static final java.util.concurrent.atomic.AtomicInteger PASSWORD_RESETS = new java.util.concurrent.atomic.AtomicInteger();
    /** Password changes the double took (the account page's). */
    /** What auth-service recorded in people's security logs, in order. */
    public static final java.util.List<JsonObject> SECURITY_LOG = new java.util.concurrent.CopyOnWriteArrayList<>();
    public static final java.util.concurrent.atomic.AtomicInteger PASSWORD_CHANGES = new java.util.concurrent.atomic.AtomicInteger();
    public static final long LAB = 201;
    public static final long VAULT = 202;
    /** A private organization that requires a second factor of its members: its admins are 120 and 121. */
    public static final long STRICT = 203;
    /** An admin of {@link #STRICT} who has a second factor. */
    public static final long STRICT_ADMIN = 120;
    /** An admin of {@link #STRICT} who has none. */
    public static final long STRICT_ADMIN_WITHOUT_SECOND_FACTOR = 121;
    private static final Map<Long, JsonObject> ORGANIZATIONS = Map.of(
            LAB, new JsonObject().put("id", LAB).put("name", "lab").put("visibility", "public")
                    .put("member_ids", new io.vertx.core.json.JsonArray().add(101).add(900)),
            VAULT, new JsonObject().put("id", VAULT).put("name", "vault").put("visibility", "private")
                    .put("member_ids", new io.vertx.core.json.JsonArray().add(102).add(900)),
            STRICT, new JsonObject().put("id", STRICT).put("name", "strict").put("visibility", "private")
                    .put("two_factor_requirement_enabled", true)
                    .put("member_ids", new io.vertx.core.json.JsonArray().add(STRICT_ADMIN).add(STRICT_ADMIN_WITHOUT_SECOND_FACTOR)));
    /** Links: "organizationId client_id" to permissions. */
    private final Map<String, JsonObject> links = new java.util.concurrent.ConcurrentHashMap<>();

    public record Person(long id, String username, String password) {
    }

    private Vertx vertx;

    @Override
    public Map<String, String> start() {
        vertx = Vertx.vertx();
        try {
            int port = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(raw -> {
                if (request.path().matches("/internal/people/\\d+/avatar") && request.method().name().equals("PUT")) {
                    // An image, not JSON: as the real one, a service's token, then the image's rules.
                    int refused = org.ziggurat.platform.testing.InternalCallers.refusal(request.getHeader("X-Platform-Token"));
                    if (refused != 0) {
                        request.response().setStatusCode(refused).end();
                    } else {
                        long id = Long.parseLong(request.path().split("/")[3]);
                        ProfileDouble.avatar(request, raw.getBytes(), PEOPLE.values().stream().filter(q -> q.id() == id)
                                .findFirst().orElse(null));
                    }
                    return;
                }
                JsonObject body;
                try {
                    body = raw.length() == 0 ? null : raw.toJsonObject();
                } catch (RuntimeException notJson) {
                    json(request, 400, "{\"status\":400}");
                    return;
                }
                // As the real internal API: a verified service token signed by that service's key.
                int refusal = org.ziggurat.platform.testing.InternalCallers.refusal(request.getHeader("X-Platform-Token"));
                if (refusal != 0) {
                    request.response().setStatusCode(refusal).end();
                    return;
                }
                String path = request.path();
                if (path.equals("/internal/passwords/verify") && request.method().name().equals("POST")) {
                    verify(request, body);
                } else if (path.equals("/internal/second-factors/verify") && request.method().name().equals("POST")) {
                    verifySecondFactor(request, body);
                } else if (IdentityDouble.handles(path)) {
                    IdentityDouble.handle(request, body);
                } else if (ProfileDouble.handles(path)) {
                    long id = Long.parseLong(path.split("/")[3]);
                    // People made through a provider (IdentityDouble) have no password.
                    Person made = IdentityDouble.CREATED.containsKey(id) ? new Person(id, IdentityDouble.CREATED.get(id)[0], null) : null;
                    ProfileDouble.handle(request, body, PEOPLE.values().stream().filter(q -> q.id() == id).findFirst().orElse(made));
                } else if (path.matches("/internal/people/\\d+/security-log") && request.method().name().equals("POST")) {
                    // As the real one: only the kinds auth-service may record, for a person it knows.
                    long id = Long.parseLong(path.split("/")[3]);
                    String kind = body == null ? null : body.getString("kind");
                    if (kind == null || !java.util.Set.of("sign_in", "application_authorized", "application_revoked").contains(kind)) {
                        json(request, 400, "{\"status\":400}");
                    } else if (PEOPLE.values().stream().noneMatch(q -> q.id() == id) || ProfileDouble.DELETED.contains(id)) {
                        json(request, 404, "{\"status\":404}");
                    } else {
                        SECURITY_LOG.add(body.put("person_id", id));
                        request.response().setStatusCode(204).end();
                    }
                } else if (path.equals("/internal/password-recoveries") && request.method().name().equals("POST")) {
                    if (body != null && RECOVERY_THROTTLED.equals(body.getString("login"))) {
                        request.response().setStatusCode(429).putHeader("Retry-After", "120")
                                .putHeader("Content-Type", "application/problem+json").end("{\"status\":429}");
                    } else {
                        request.response().setStatusCode(202).end();
                    }
                } else if (path.matches("/internal/people/\\d+/factors/totp") && request.method().name().equals("POST")) {
                    TOTP_STARTED.add(Long.parseLong(path.split("/")[3]));
                    json(request, 200, "{\"secret\":\"JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP\",\"algorithm\":\"SHA1\",\"digits\":6,\"period\":30}");
                } else if (path.matches("/internal/people/\\d+/factors") && request.method().name().equals("GET")) {
                    // As the real one for its people: alice and the others without a factor here.
                    long id = Long.parseLong(path.split("/")[3]);
                    boolean known = PEOPLE.values().stream().anyMatch(q -> q.id() == id) && !ProfileDouble.DELETED.contains(id);
                    json(request, known ? 200 : 404, known ? new JsonObject().put("two_factor_authentication", SECOND_FACTOR.contains(id))
                            .put("totp", SECOND_FACTOR.contains(id) ? "confirmed" : "none")
                            .put("passkeys", new io.vertx.core.json.JsonArray()).put("recovery_codes_left", 0)
                            .put("events", new io.vertx.core.json.JsonArray()).encode() : "{\"status\":404}");
                } else if (path.matches("/internal/people/\\d+/password") && request.method().name().equals("PUT")) {
                    long id = Long.parseLong(path.split("/")[3]);
                    String password = body == null ? null : body.getString("password");
                    Person p = PEOPLE.values().stream().filter(q -> q.id() == id).findFirst().orElse(null);
                    if (p == null) {
                        json(request, 404, "{\"status\":404}");
                    } else if (password == null || password.length() < 10) {
                        json(request, 422, "{\"status\":422,\"errors\":[{\"field\":\"password\"}]}");
                    } else {
                        PASSWORD_CHANGES.incrementAndGet();
                        json(request, 200, new JsonObject().put("id", p.id()).put("username", p.username()).encode());
                    }
                } else if (path.equals("/internal/password-resets") && request.method().name().equals("POST")) {
                    PASSWORD_RESETS.incrementAndGet();
                    String token = body == null ? null : body.getString("token");
                    String password = body == null ? null : body.getString("password");
                    if (password == null || password.length() < 10) {
                        json(request, 422, "{\"status\":422,\"errors\":[{\"field\":\"password\"}]}");
                    } else if (RECOVERY_TOKEN.equals(token) && USED_RECOVERY_TOKENS.add(token)) {
                        json(request, 200, new JsonObject().put("id", 101).put("username", "alice")
                                .put("email", "alice@example.org").encode());
                    } else {
                        json(request, 410, "{\"status\":410,\"title\":\"Link Gone\"}");
                    }
                } else if (path.equals("/internal/email-verifications") && request.method().name().equals("POST")) {
                    EMAIL_VERIFICATIONS.incrementAndGet();
                    String token = body == null ? null : body.getString("token");
                    if (EMAIL_TOKEN.equals(token) && USED_EMAIL_TOKENS.add(token)) {
                        json(request, 200, new JsonObject().put("person_id", 101).put("username", "alice")
                                .put("email", "alice@example.org").encode());
                    } else {
                        json(request, 410, "{\"status\":410,\"title\":\"Link Gone\"}");
                    }
                } else if (path.equals("/internal/people") && request.method().name().equals("GET")) {
                    String ids = request.getParam("ids", "");
                    if (!ids.matches(" *[0-9]+ *(, *[0-9]+ *)*")) {
                        json(request, 422, "{\"status\":422}"); // as the real API: whole numbers, at least one
                        return;
                    }
                    java.util.Set<String> wanted = java.util.Arrays.stream(ids.split(",")).map(String::strip)
                            .collect(java.util.stream.Collectors.toSet());
                    io.vertx.core.json.JsonArray out = new io.vertx.core.json.JsonArray();
                    PEOPLE.values().stream().filter(p -> wanted.contains(Long.toString(p.id())))
                            .sorted(java.util.Comparator.comparingLong(Person::id))
                            .forEach(p -> out.add(new JsonObject().put("id", p.id()).put("username", p.username())
                                    .put("display_name", p.username().toUpperCase()).putNull("email")
                                    .put("image_thumb_50", "https://x.example/people/" + p.username() + "/avatar")));
                    json(request, 200, out.encode());
                } else if (path.matches("/internal/people/\\d+/claims") && request.method().name().equals("GET")) {
                    long id = Long.parseLong(path.split("/")[3]);
                    Person p = PEOPLE.values().stream().filter(q -> q.id() == id).findFirst().orElse(null);
                    String research = request.getParam("research");
                    if (research != null && !research.equals("true") && !research.equals("false")) {
                        json(request, 400, "{\"status\":400}"); // as the real one: a flag
                    } else if (p == null && IdentityDouble.CREATED.get(id) == null) {
                        json(request, 404, "{\"status\":404}");
                    } else {
                        String username = p != null ? p.username() : IdentityDouble.CREATED.get(id)[0];
                        JsonObject claims = new JsonObject().put("id", id).put("username", username)
                                .put("display_name", username.toUpperCase())
                                .put("picture", "https://x.example/people/" + username + "/avatar")
                                .put("html_url", "https://x.example/" + username)
                                .put("email", p != null ? ProfileDouble.email(p) : IdentityDouble.CREATED.get(id)[1])
                                .put("updated_at", "2026-01-01T00:00:00Z")
                                .put("email_verified", p != null && ProfileDouble.verified(p));
                        if (p != null) {
                            // As the real one: the standard profile claims the person gave, none that they did not.
                            ProfileDouble.details(p).forEach(claims::put);
                        }
                        if ("true".equals(research)) {
                            // As the real one: an organization that requires a second factor only for a sign-in with one.
                            boolean withFactor = "true".equals(request.getParam("second_factor_sign_in")) && id == STRICT_ADMIN;
                            io.vertx.core.json.JsonArray entitled = new io.vertx.core.json.JsonArray();
                            organizationsOf(id).stream().map(JsonObject.class::cast)
                                    .filter(o -> withFactor || !ORGANIZATIONS.get(o.getLong("id"))
                                            .getBoolean("two_factor_requirement_enabled", false))
                                    .forEach(entitled::add);
                            claims.put("research", IdentityDouble.research(id, entitled));
                        }
                        json(request, 200, claims.encode());
                    }
                } else if (path.matches("/internal/namespaces/[^/]+") && request.method().name().equals("GET")) {
                    namespace(request, path.substring("/internal/namespaces/".length()));
                } else if (path.matches("/internal/people/\\d+/organizations")) {
                    json(request, 200, organizationsOf(Long.parseLong(path.split("/")[3])).encode());
                } else if (path.matches("/internal/organizations/\\d+/applications/[^/]+")) {
                    String[] parts = path.split("/");
                    long org = Long.parseLong(parts[3]);
                    String key = org + " " + parts[5];
                    if (!ORGANIZATIONS.containsKey(org) || !ClientCredentials.plausibleClientId(parts[5])) {
                        json(request, 404, "{\"status\":404}");
                    } else if (request.method().name().equals("PUT")) {
                        // As the real API: the permissions are validated whole before anything is kept.
                        UserPermissions permissions;
                        try {
                            permissions = UserPermissions.parse(body == null ? null
                                    : new com.fasterxml.jackson.databind.ObjectMapper().readTree(body.encode()).get("permissions"),
                                    "permissions");
                        } catch (org.ziggurat.platform.problem.ProblemException | com.fasterxml.jackson.core.JsonProcessingException e) {
                            json(request, 422, "{\"status\":422}");
                            return;
                        }
                        boolean created = links.put(key, permissions.toJson()) == null;
                        json(request, created ? 201 : 200, "{}");
                    } else if (request.method().name().equals("DELETE")) {
                        request.response().setStatusCode(links.remove(key) == null ? 404 : 204).end();
                    } else {
                        request.response().setStatusCode(405).end();
                    }
                } else if (path.matches("/internal/applications/[^/]+/organizations")) {
                    String client = path.split("/")[3];
                    if (!ClientCredentials.plausibleClientId(client)) {
                        json(request, 404, "{\"status\":404}");
                        return;
                    }
                    io.vertx.core.json.JsonArray out = new io.vertx.core.json.JsonArray();
                    links.forEach((key, permissions) -> {
                        if (key.endsWith(" " + client)) {
                            JsonObject org = ORGANIZATIONS.get(Long.parseLong(key.split(" ")[0])).copy();
                            org.put("url", publicBase(request) + "/organizations/" + org.getLong("id"));
                            out.add(new JsonObject().put("organization", org).put("permissions", permissions));
                        }
                    });
                    json(request, 200, out.encode());
                } else {
                    request.response().setStatusCode(404).end();
                }
            })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
            return Map.of("quarkus.rest-client.directory.url", "http://127.0.0.1:" + port);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot start the directory double", e);
        }
    }

    private static void verify(io.vertx.core.http.HttpServerRequest request, JsonObject check) {
        String login = check == null ? null : check.getString("login");
        if (login == null || login.isBlank() || check.getString("password") == null) {
            json(request, 422, "{\"status\":422}"); // as the real API: login and password are required
            return;
        }
        if (SILENT.equals(login)) {
            return; // no answer: as a directory that takes longer than its callers wait
        }
        if (AWAY.equals(login)) {
            // As directory-service answers while its database is away.
            request.response().setStatusCode(503).putHeader("Retry-After", "2").end();
            return;
        }
        if (THROTTLED.equals(login)) {
            request.response().setStatusCode(429).putHeader("Retry-After", "30").end();
            return;
        }
        Person person = PEOPLE.values().stream()
                .filter(p -> p.username().equalsIgnoreCase(login) || (p.username() + "@example.org").equalsIgnoreCase(login))
                .findFirst().orElse(null);
        if (person == null || !person.password().equals(check.getString("password"))) {
            json(request, 401, "{\"status\":401}");
            return;
        }
        json(request, 200, new JsonObject().put("user_id", person.id()).put("username", person.username())
                .put("second_factor", SECOND_FACTOR.contains(person.id())).encode());
    }

    /**
     * As NamespaceLookups, for the organizations here (no test here asks for a person's
     * namespace): the person's rights, an admin's and a member's withheld in {@link #STRICT} from
     * one without a second factor or whose sign-in did not use it ({@code second_factor_sign_in};
     * absent: as with one).
     */
    private static void namespace(io.vertx.core.http.HttpServerRequest request, String name) {
        JsonObject org = ORGANIZATIONS.values().stream().filter(o -> o.getString("name").equalsIgnoreCase(name))
                .findFirst().orElse(null);
        String personId = request.getParam("person_id", "0");
        String signIn = request.getParam("second_factor_sign_in");
        if (signIn != null && !signIn.equals("true") && !signIn.equals("false")) {
            json(request, 400, "{\"status\":400}");
            return;
        }
        if (org == null || !personId.matches("0|[1-9][0-9]{0,17}")) {
            json(request, 404, "{\"status\":404}");
            return;
        }
        long person = Long.parseLong(personId);
        String role = organizationsOf(person).stream().map(JsonObject.class::cast)
                .filter(o -> o.getLong("id") == org.getLong("id").longValue()).map(o -> o.getString("role")).findFirst().orElse(null);
        boolean hasSecondFactor = person == STRICT_ADMIN;
        boolean withheld = org.getBoolean("two_factor_requirement_enabled", false) && role != null
                && (!hasSecondFactor || "false".equals(signIn));
        boolean active = role != null && !withheld;
        json(request, 200, new JsonObject().put("name", org.getString("name")).put("kind", "organization")
                .put("id", org.getLong("id")).put("visibility", org.getString("visibility"))
                .put("read", "public".equals(org.getString("visibility")) || active).put("write", active)
                .put("admin", active && "admin".equals(role))
                .put("second_factor_required", withheld && !hasSecondFactor)
                .put("second_factor_sign_in_required", withheld && hasSecondFactor).encode());
    }

    /** The organizations a person is an active member of, with the role. */
    private static io.vertx.core.json.JsonArray organizationsOf(long person) {
        io.vertx.core.json.JsonArray out = new io.vertx.core.json.JsonArray();
        if (person == 101) {
            out.add(new JsonObject().put("id", LAB).put("name", "lab").put("role", "member"));
        } else if (person == 102) {
            out.add(new JsonObject().put("id", VAULT).put("name", "vault").put("role", "admin"));
        } else if (person == STRICT_ADMIN || person == STRICT_ADMIN_WITHOUT_SECOND_FACTOR) {
            out.add(new JsonObject().put("id", STRICT).put("name", "strict").put("role", "admin"));
        } else if (person == 900) {
            out.add(new JsonObject().put("id", LAB).put("name", "lab").put("role", "admin"));
            out.add(new JsonObject().put("id", VAULT).put("name", "vault").put("role", "admin"));
        }
        return out;
    }

    /** The code of the TOTP key at a step (the real directory's algorithm, RFC 6238's defaults). */
    public static String totp(long step) {
        try {
            int code = new com.eatthepath.otp.TimeBasedOneTimePasswordGenerator().generateOneTimePassword(
                    new javax.crypto.spec.SecretKeySpec(TOTP_KEY, "HmacSHA1"), java.time.Instant.ofEpochSecond(step * 30));
            return String.format("%06d", code);
        } catch (java.security.InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }

    public static long currentStep() {
        return java.time.Instant.now().getEpochSecond() / 30;
    }

    /** Checks a code as the real directory does, with its throttle: 429 after three wrong codes for a person. */
    private void verifySecondFactor(io.vertx.core.http.HttpServerRequest request, JsonObject check) {
        // As SecondFactorChecks: a code longer than 30 characters is no code, refused unchecked.
        if (check == null || check.getValue("person_id") == null || check.getString("code") == null
                || check.getString("code").length() > 30) {
            json(request, 422, "{\"status\":422}");
            return;
        }
        long person = check.getLong("person_id");
        SECOND_FACTOR_CHECKS.computeIfAbsent(person, p -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet();
        String code = check.getString("code").replaceAll("[\\s-]", "").toLowerCase(java.util.Locale.ROOT);
        if (failures.getOrDefault(person, 0) >= 3) {
            request.response().setStatusCode(429).putHeader("Retry-After", "900").end();
            return;
        }
        if (SECOND_FACTOR.contains(person)) {
            long now = currentStep();
            for (long step = now - 1; step <= now + 1; step++) {
                if (totp(step).equals(code) && lastStep.getOrDefault(person, 0L) < step) {
                    lastStep.put(person, step);
                    json(request, 200, new JsonObject().put("method", "otp").put("recovery_codes_left", 3).encode());
                    return;
                }
            }
            for (String recovery : RECOVERY_CODES) {
                if (recovery.replace("-", "").equals(code) && usedRecoveryCodes.add(person + " " + code)) {
                    long left = RECOVERY_CODES.stream().filter(r -> !usedRecoveryCodes.contains(person + " " + r.replace("-", "")))
                            .count();
                    json(request, 200, new JsonObject().put("method", "recovery").put("recovery_codes_left", left).encode());
                    return;
                }
            }
        }
        failures.merge(person, 1, Integer::sum);
        json(request, 401, "{\"status\":401}");
    }

    /** As the real directory does: URLs from the forwarded headers of the call. */
    private static String publicBase(io.vertx.core.http.HttpServerRequest request) {
        String proto = request.getHeader("X-Forwarded-Proto");
        String host = request.getHeader("X-Forwarded-Host");
        String prefix = request.getHeader("X-Forwarded-Prefix");
        return proto == null || host == null ? "http://" + request.authority()
                : proto + "://" + host + (prefix == null ? "" : prefix);
    }

    private static void json(io.vertx.core.http.HttpServerRequest request, int status, String body) {
        request.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body);
    }

    @Override
    public void stop() {
        if (vertx != null) {
            vertx.close();
        }
    }
}
