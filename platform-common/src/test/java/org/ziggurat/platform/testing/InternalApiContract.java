package org.ziggurat.platform.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One contract for directory-service's internal API, run against the real service
 * ({@code InternalApiTest}) and against each double that stands for it, so that a double can be
 * simpler than the service but never laxer: the same callers and the same requests get the same
 * answers. Its parts: the authentication of an internal call (the doubles accepted any
 * X-Platform-Token at all), rights in namespaces, people and their memberships with their roles,
 * application links, password checks, and the error answers of each.
 */
public final class InternalApiContract {

    private InternalApiContract() {
    }

    /** {@code endpoint}: a GET of the internal API that a service may call. */
    public static void assertAuthenticatesLikeTheService(URI endpoint) throws Exception {
        Map<String, Integer> refused = new LinkedHashMap<>();
        refused.put("no token", null);
        refused.put("a person's token from the gateway", 403);
        refused.put("a person's token signed by an untrusted key", 401);
        refused.put("an expired person's token", 401);
        refused.put("a service token signed by another service's key", 401);
        refused.put("garbage", 401);
        Map<String, String> tokens = Map.of(
                "a person's token from the gateway", TestTokens.user(101, "alice", "user", "admin"),
                "a person's token signed by an untrusted key", TestTokens.userSignedByUnknownKey(101, "alice"),
                "an expired person's token", TestTokens.expiredUser(101, "alice"),
                "a service token signed by another service's key", TestTokens.serviceSignedBy("vocab-service", "auth-service"),
                "garbage", "not.a.token");
        HttpClient http = HttpClient.newHttpClient();
        for (Map.Entry<String, Integer> caller : refused.entrySet()) {
            HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).GET();
            String token = tokens.get(caller.getKey());
            if (token != null) {
                request.header("X-Platform-Token", token);
            }
            int status = http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            assertEquals(caller.getValue() == null ? 401 : caller.getValue(), status, caller.getKey() + " at " + endpoint);
        }
        int status = http.send(HttpRequest.newBuilder(endpoint).header("X-Platform-Token", TestTokens.service("auth-service"))
                .GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        assertTrue(status != 401 && status != 403, "a service's own token was refused (" + status + ") at " + endpoint);
    }

    /**
     * What a run names in the service or double under test. {@code organization} (private or
     * not, as {@code organizationPrivate} says) has {@code member} as an active member of role
     * member and {@code admin} as an active admin; {@code stranger} belongs to neither it nor
     * {@code person}'s namespace; {@code person} signs in with {@code password}.
     */
    public record World(String personName, long person, String password, String organizationName, long organization,
            boolean organizationPrivate, long member, long admin, long stranger) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** {@code GET /internal/namespaces/:name?person_id=}: what one person may do in a namespace. */
    public static void assertNamespacesLikeTheDirectory(URI base, World w) throws Exception {
        String person = "/internal/namespaces/" + w.personName();
        assertRights(base, person + "?person_id=" + w.person(), "person", w.person(), "public", true, true, true);
        assertRights(base, person.toUpperCase().replace("/INTERNAL/NAMESPACES/", "/internal/namespaces/") + "?person_id="
                + w.person(), "person", w.person(), "public", true, true, true);
        assertRights(base, person + "?person_id=" + w.stranger(), "person", w.person(), "public", true, false, false);
        assertRights(base, person, "person", w.person(), "public", true, false, false);
        assertRights(base, person + "?person_id=0", "person", w.person(), "public", true, false, false);

        String org = "/internal/namespaces/" + w.organizationName();
        String visibility = w.organizationPrivate() ? "private" : "public";
        boolean outsidersRead = !w.organizationPrivate();
        assertRights(base, org, "organization", w.organization(), visibility, outsidersRead, false, false);
        assertRights(base, org + "?person_id=" + w.stranger(), "organization", w.organization(), visibility, outsidersRead,
                false, false);
        assertRights(base, org + "?person_id=" + w.member(), "organization", w.organization(), visibility, true, true, false);
        assertRights(base, org + "?person_id=" + w.admin(), "organization", w.organization(), visibility, true, true, true);

        assertStatus(404, get(base, "/internal/namespaces/no-such-namespace-here"), "an unknown name");
        assertStatus(404, get(base, "/internal/namespaces/" + "a".repeat(40)), "a name past 39 characters");
        assertStatus(404, get(base, org + "?person_id=abc"), "a person id that is no id");
        assertStatus(404, get(base, org + "?person_id=-1"), "a negative person id");
    }

    /**
     * {@code POST /internal/namespaces/:name/admin-notices}: events-service alone may ask (another
     * service 403); a notice for an unknown namespace is 404, a notice without its parts 422, one
     * for a known namespace 202 with how many mails were queued (the person of a person's namespace; the
 * world's organization has one active admin).
     */
    public static void assertAdminNoticesLikeTheDirectory(URI base, World w) throws Exception {
        String notice = "{\"kind\":\"webhook_disabled\",\"subject\":\"A webhook was disabled\",\"body\":\"It failed.\"}";
        HttpResponse<String> queued = post(base, "/internal/namespaces/" + w.personName() + "/admin-notices", notice,
                TestTokens.service("events-service"));
        assertStatus(202, queued, "a notice to a person's namespace");
        assertEquals(1, JSON.readTree(queued.body()).get("queued").asInt(), "one mail, to the person");
        HttpResponse<String> toOrganization = post(base, "/internal/namespaces/" + w.organizationName() + "/admin-notices",
                notice, TestTokens.service("events-service"));
        assertStatus(202, toOrganization, "a notice to an organization");
        assertEquals(1, JSON.readTree(toOrganization.body()).get("queued").asInt(),
                "one mail, to the organization's one active admin (not to its members)");
        assertStatus(403, post(base, "/internal/namespaces/" + w.personName() + "/admin-notices", notice,
                TestTokens.service("vocab-service")), "a notice from a service that sends none");
        assertStatus(404, post(base, "/internal/namespaces/no-such-namespace-here/admin-notices", notice,
                TestTokens.service("events-service")), "a notice to an unknown namespace");
        assertStatus(422, post(base, "/internal/namespaces/" + w.personName() + "/admin-notices", "{\"kind\":\"x\"}",
                TestTokens.service("events-service")), "a notice without subject and body");
    }

    private static HttpResponse<String> post(URI base, String path, String json, String token) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(base.resolve(path)).header("X-Platform-Token", token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * {@code GET /internal/people?ids=}, {@code GET /internal/people/:id/organizations} (only
     * active memberships, with their roles) and {@code POST /internal/passwords/verify}.
     */
    public static void assertPeopleLikeTheDirectory(URI base, World w) throws Exception {
        HttpResponse<String> people = get(base, "/internal/people?ids=" + w.stranger() + "," + w.person() + ",999999999");
        assertStatus(200, people, "people by ids");
        List<Long> ids = new ArrayList<>();
        JSON.readTree(people.body()).forEach(p -> ids.add(p.get("id").asLong()));
        assertEquals(List.of(Math.min(w.person(), w.stranger()), Math.max(w.person(), w.stranger())), ids,
                "known people in id order, unknown ids left out");
        for (JsonNode p : JSON.readTree(people.body())) {
            assertTrue(p.hasNonNull("username") && p.hasNonNull("image_thumb_50"), "a person summary: " + p);
        }
        assertStatus(422, get(base, "/internal/people?ids=1,abc"), "ids that are no numbers");
        assertStatus(422, get(base, "/internal/people"), "no ids");

        HttpResponse<String> claims = get(base, "/internal/people/" + w.person() + "/claims");
        assertStatus(200, claims, "a person's OpenID claims");
        JsonNode claimed = JSON.readTree(claims.body());
        assertEquals(w.person(), claimed.get("id").asLong(), claims.body());
        assertEquals(w.personName(), claimed.get("username").asText(), claims.body());
        assertTrue(claimed.hasNonNull("email") && claimed.get("email").asText().contains("@"),
                "the sign-in address, which no public answer shows: " + claims.body());
        assertTrue(claimed.hasNonNull("updated_at"), claims.body());
        assertStatus(404, get(base, "/internal/people/999999999/claims"), "the claims of nobody");
        assertStatus(404, get(base, "/internal/people/abc/claims"), "claims of a person id that is no id");

        assertEquals("member", memberships(base, w.member()).get(w.organization()), "the member's role");
        assertEquals("admin", memberships(base, w.admin()).get(w.organization()), "the admin's role");
        assertEquals(Map.of(), memberships(base, w.stranger()), "a stranger (or someone only invited) belongs nowhere");
        assertStatus(404, get(base, "/internal/people/abc/organizations"), "a person id that is no id");

        assertStatus(200, verify(base, "{\"login\":\"" + w.personName() + "\",\"password\":\"" + w.password() + "\"}"),
                "the right password");
        HttpResponse<String> right = verify(base, "{\"login\":\"" + w.personName().toUpperCase() + "\",\"password\":\""
                + w.password() + "\"}");
        assertStatus(200, right, "the username in another case");
        assertEquals(w.person(), JSON.readTree(right.body()).get("user_id").asLong());
        assertEquals(w.personName(), JSON.readTree(right.body()).get("username").asText());
        assertStatus(401, verify(base, "{\"login\":\"" + w.personName() + "\",\"password\":\"not " + w.password() + "\"}"),
                "a wrong password");
        assertStatus(401, verify(base, "{\"login\":\"nobody-" + w.personName() + "\",\"password\":\"" + w.password() + "\"}"),
                "an unknown login");
        assertStatus(422, verify(base, "{\"login\":\"" + w.personName() + "\"}"), "no password");
        assertStatus(400, verify(base, "{"), "a body that is no JSON");
    }

    /** {@code PUT|DELETE /internal/organizations/:id/applications/:client_id} and {@code GET /internal/applications/:client_id/organizations}. */
    public static void assertApplicationLinksLikeTheDirectory(URI base, World w, String clientId) throws Exception {
        String link = "/internal/organizations/" + w.organization() + "/applications/" + clientId;
        String permissions = "{\"permissions\":{\"read\":true,\"extra\":{\"comment\":true}}}";
        assertStatus(201, send(base, "PUT", link, permissions), "a new link");
        assertStatus(200, send(base, "PUT", link, permissions), "the same link again");
        HttpResponse<String> linked = get(base, "/internal/applications/" + clientId + "/organizations");
        assertStatus(200, linked, "the application's organizations");
        JsonNode links = JSON.readTree(linked.body());
        assertEquals(1, links.size(), linked.body());
        assertEquals(w.organization(), links.get(0).get("organization").get("id").asLong());
        assertTrue(links.get(0).get("permissions").get("read").asBoolean(), linked.body());

        assertStatus(422, send(base, "PUT", link, "{\"permissions\":{\"fly\":true}}"), "an unknown permission");
        assertStatus(422, send(base, "PUT", link, "{\"permissions\":{\"read\":\"yes\"}}"), "a permission that is no boolean");
        assertStatus(422, send(base, "PUT", link, "{}"), "no permissions");
        assertStatus(404, send(base, "PUT", "/internal/organizations/999999999/applications/" + clientId, permissions),
                "an unknown organization");
        assertStatus(404, send(base, "PUT", "/internal/organizations/" + w.organization() + "/applications/bad%20id", permissions),
                "a client id that is none");
        assertStatus(404, get(base, "/internal/applications/bad%20id/organizations"), "a client id that is none");

        assertStatus(204, send(base, "DELETE", link, null), "the link goes");
        assertStatus(404, send(base, "DELETE", link, null), "a link that is gone");
        assertEquals(0, JSON.readTree(get(base, "/internal/applications/" + clientId + "/organizations").body()).size());
    }

    private static void assertRights(URI base, String path, String kind, long id, String visibility, boolean read,
            boolean write, boolean admin) throws Exception {
        HttpResponse<String> answer = get(base, path);
        assertStatus(200, answer, path);
        JsonNode ns = JSON.readTree(answer.body());
        String what = path + " answered " + answer.body();
        assertEquals(kind, ns.path("kind").asText(), what);
        assertEquals(id, ns.path("id").asLong(), what);
        assertEquals(visibility, ns.path("visibility").asText(), what);
        assertEquals(read, ns.path("read").asBoolean(), what);
        assertEquals(write, ns.path("write").asBoolean(), what);
        assertEquals(admin, ns.path("admin").asBoolean(), what);
        assertEquals(path.substring("/internal/namespaces/".length()).split("\\?")[0].toLowerCase(), ns.path("name").asText(),
                what);
    }

    private static Map<Long, String> memberships(URI base, long person) throws Exception {
        HttpResponse<String> answer = get(base, "/internal/people/" + person + "/organizations");
        assertStatus(200, answer, "the organizations of " + person);
        Map<Long, String> roles = new LinkedHashMap<>();
        JSON.readTree(answer.body()).forEach(o -> roles.put(o.get("id").asLong(), o.get("role").asText()));
        return roles;
    }

    private static HttpResponse<String> verify(URI base, String body) throws Exception {
        return send(base, "POST", "/internal/passwords/verify", body);
    }

    private static HttpResponse<String> get(URI base, String path) throws Exception {
        return send(base, "GET", path, null);
    }

    static HttpResponse<String> send(URI base, String method, String path, String json) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
                .header("X-Platform-Token", TestTokens.service("auth-service"))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static void assertStatus(int expected, HttpResponse<String> answer, String what) {
        assertEquals(expected, answer.statusCode(), what + ": " + answer.request().method() + " " + answer.uri() + " answered "
                + answer.body());
    }
}
