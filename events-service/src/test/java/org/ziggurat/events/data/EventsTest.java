package org.ziggurat.events.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.flipkart.zjsonpatch.JsonPatch;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.NamespaceDirectoryDouble;
import org.ziggurat.platform.testing.TestTokens;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ziggurat.platform.testing.NamespaceDirectoryDouble.ALICE;
import static org.ziggurat.platform.testing.NamespaceDirectoryDouble.BOB;

@QuarkusTest
class EventsTest {

    static final ObjectMapper JSON = new ObjectMapper();

    static RequestSpecification asAlice(String... scopes) {
        return given().header("X-Platform-Token", TestTokens.userWithClient(ALICE, "alice", "NotebookClient000001", scopes));
    }

    static RequestSpecification asBob(String... scopes) {
        return given().header("X-Platform-Token", TestTokens.user(BOB, "bob", scopes));
    }

    static String repo() {
        return "data-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static Map<String, Object> commit(String item, Map<String, Object> payload) {
        return Map.of("type", "Aggregation::Commit::Legacy",
                "identifier", Map.of("id", item, "type", "Place", "agent", "pleiades"), "payload", payload);
    }

    static Map<String, Object> event(String note, Object... commits) {
        return Map.of("note", note, "commits_attributes", List.of(commits));
    }

    static ValidatableResponse post(RequestSpecification as, String path, Object body) {
        return as.contentType("application/json").body(body).post(path).then();
    }

    @Test
    void anEventIsRecordedWithItsCommitsAndRevisions() {
        String path = "/alice/repositories/" + repo() + "/data/events";
        var first = post(asAlice("write"), path, event("First upload",
                commit("places/579885", Map.of("title", "Athens", "lat", 37.97)))).statusCode(201)
                .header("Location", matchesPattern(".*" + path + "/\\d+"))
                .body("kind", equalTo("API-Request"))
                .body("note", equalTo("First upload"))
                .body("url", matchesPattern("http.*" + path + "/\\d+"))
                .body("html_url", matchesPattern("http.*/alice/data-.*/data/events/\\d+"))
                .body("repository_url", endsWith(path.replace("/data/events", "")))
                .body("creator.username", equalTo("alice"))
                .body("creator.id", equalTo((int) ALICE))
                .body("client_id", equalTo("NotebookClient000001"))
                .body("commits_count", equalTo(1))
                .body("commits[0].revision", equalTo(1))
                .body("commits[0].identifier.id", equalTo("places/579885"))
                .body("commits[0].payload.title", equalTo("Athens"))
                .body("commits[0].changeset.op", hasItem("add"))
                .body("created_at", matchesPattern(".*T.*\\.\\d{3}Z")).extract();
        int firstId = first.path("id");
        var second = post(asAlice("write"), path, Map.of("kind", "FileUpload", "note", "Fix the name",
                "commits_attributes", List.of(commit("places/579885", Map.of("title", "Athína", "lat", 37.97)))))
                .statusCode(201).body("kind", equalTo("FileUpload")).body("commits[0].revision", equalTo(2))
                .body("commits[0].changeset", hasSize(1))
                .body("commits[0].changeset[0].op", equalTo("replace"))
                .body("commits[0].changeset[0].path", equalTo("/title"))
                .body("commits[0].changeset[0].value", equalTo("Athína")).extract();
        int secondId = second.path("id");
        given().get(path + "/" + secondId + "/commits").then().statusCode(200).body("revision", equalTo(List.of(2)));
        given().get(path + "/" + firstId).then().statusCode(200).body("commits", hasSize(1));
        given().get(path + "/99999999").then().statusCode(404).contentType("application/problem+json");
        given().get(path + "/99999999/commits").then().statusCode(404);
    }

    @Test
    void invalidEventsAreRefusedWithTheFieldNamed() {
        String path = "/alice/repositories/" + repo() + "/data/events";
        post(asAlice("write"), path, Map.of("commits_attributes", List.of())).statusCode(422)
                .body("errors.field", hasItem("note"));
        post(asAlice("write"), path, Map.of("note", "x", "kind", "Upload")).statusCode(422).body("errors.field", hasItem("kind"));
        post(asAlice("write"), path, Map.of("note", "x", "commits_attributes", List.of(Map.of("type", "t",
                "identifier", Map.of("id", "a"), "payload", List.of(1))))).statusCode(422)
                .body("errors.field", hasItem("commits_attributes[0].identifier.type"))
                .body("errors.field", hasItem("commits_attributes[0].payload"));
        post(asAlice("write"), path, Map.of("note", "x", "commits_attributes", "nope")).statusCode(422);
        List<Object> many = new ArrayList<>();
        for (int i = 0; i < 51; i++) {
            many.add(commit("i" + i, Map.of("n", i)));
        }
        post(asAlice("write"), path, Map.of("note", "x", "commits_attributes", many)).statusCode(422)
                .body("errors[0].field", equalTo("commits_attributes"));
        Object deep = Map.of("v", 1);
        for (int i = 0; i < 10; i++) {
            deep = Map.of("d", deep);
        }
        post(asAlice("write"), path, event("deep", commit("d", Map.of("deep", deep)))).statusCode(422)
                .body("errors[0].field", equalTo("commits_attributes[0].payload"));
        post(asAlice("write"), path, event("big", commit("b", Map.of("text", "x".repeat(25_000))))).statusCode(413)
                .contentType("application/problem+json");
        asAlice("write").contentType("application/json").body("{\"note\":").post(path).then().statusCode(400)
                .contentType("application/problem+json");
        asAlice("write").contentType("text/plain").body("note").post(path).then().statusCode(415);
        given().get("/alice/repositories/..%2F..%2Fetc/data/events").then().statusCode(404);
        given().get(path + "?since=yesterday").then().statusCode(400).body("errors[0].field", equalTo("since"));
        given().get(path + "?kind=Other").then().statusCode(400);
        given().get(path + "?per_page=500").then().statusCode(400);
    }

    /**
     * The payloads of an event hold at most max-payload-values (3,000 here) values: beyond, a 422
     * naming the commit, and nothing is written. Below it, a large changeset (computed on the
     * changeset pool, an array replaced whole) still turns the previous payload into the new one.
     */
    @Test
    void payloadsAreBoundedAndLargeChangesetsStayCorrect() throws Exception {
        String path = "/alice/repositories/" + repo() + "/data/events";
        List<Integer> small = new ArrayList<>();
        List<Integer> other = new ArrayList<>();
        for (int i = 0; i < 1_400; i++) {
            small.add(i);
            other.add(10_000 + i);
        }
        post(asAlice("write"), path, event("too many values", commit("a", Map.of("rows", small)),
                commit("b", Map.of("rows", small)), commit("c", Map.of("rows", small)))).statusCode(422)
                .body("errors.field", hasItem("commits_attributes[2].payload"));
        asAlice().get(path).then().statusCode(200).body("", hasSize(0));

        post(asAlice("write"), path, event("first", commit("a", Map.of("rows", small)))).statusCode(201);
        var second = post(asAlice("write"), path, event("second", commit("a", Map.of("rows", other, "n", 1))))
                .statusCode(201).extract();
        JsonNode changeset = JSON.readTree(second.asString()).get("commits").get(0).get("changeset");
        JsonNode before = JSON.valueToTree(Map.of("rows", small));
        assertEquals(JSON.valueToTree(Map.of("rows", other, "n", 1)), JsonPatch.apply(changeset, before));
        assertEquals(2, changeset.size(), changeset.toString());
    }

    @Test
    void writingNeedsTheWriteScopeAndRights() {
        String repo = repo();
        Map<String, Object> body = event("note", commit("x", Map.of("a", 1)));
        post(given(), "/alice/repositories/" + repo + "/data/events", body).statusCode(401);
        post(asAlice("public"), "/alice/repositories/" + repo + "/data/events", body).statusCode(403);
        post(asBob("write"), "/alice/repositories/" + repo + "/data/events", body).statusCode(403);
        post(asAlice("write"), "/lab/repositories/" + repo + "/data/events", body).statusCode(201);
        post(asAlice("write"), "/vault/repositories/" + repo + "/data/events", body).statusCode(404);
        post(asBob("write"), "/vault/repositories/" + repo + "/data/events", body).statusCode(201);
        post(asAlice("write"), "/nobody-here/repositories/" + repo + "/data/events", body).statusCode(404);
        // Reading: public namespaces to anyone, private ones to members only.
        given().get("/lab/repositories/" + repo + "/data/events").then().statusCode(200).body("$", hasSize(1));
        given().get("/vault/repositories/" + repo + "/data/events").then().statusCode(404);
        asAlice("public").get("/vault/repositories/" + repo + "/data/events").then().statusCode(404);
        asBob("public").get("/vault/repositories/" + repo + "/data/events").then().statusCode(200).body("$", hasSize(1));
        given().get("/alice/repositories/never-written/data/events").then().statusCode(200).body("$", hasSize(0));
    }

    /**
     * In an organization that requires a second factor ("strict"): alice, who has one, writes and
     * reads with a token from a sign-in with it; with one from a sign-in without, RFC 9470's 401
     * says to sign in with it; bob, who has none, is told to set one up.
     */
    @Test
    void anOrganizationThatRequiresASecondFactorAsksForASignInWithIt() {
        String path = "/strict/repositories/" + repo() + "/data/events";
        Map<String, Object> body = event("strict", commit("s", Map.of("a", 1)));
        RequestSpecification withFactor = given().header("X-Platform-Token",
                TestTokens.userWithSecondFactor(ALICE, "alice", "write", "public"));
        post(withFactor, path, body).statusCode(201);
        post(asAlice("write"), path, body).statusCode(401).contentType("application/problem+json")
                .body("title", equalTo("Insufficient User Authentication"))
                .header("WWW-Authenticate", org.hamcrest.Matchers.allOf(
                        org.hamcrest.Matchers.containsString("error=\"insufficient_user_authentication\""),
                        org.hamcrest.Matchers.containsString("acr_values=\"https://refeds.org/profile/mfa\"")));
        asAlice("public").get(path).then().statusCode(401).header("WWW-Authenticate",
                org.hamcrest.Matchers.containsString("insufficient_user_authentication"));
        given().header("X-Platform-Token", TestTokens.userWithSecondFactor(ALICE, "alice", "public")).get(path).then()
                .statusCode(200).body("$", hasSize(1));
        post(asBob("write"), path, body).statusCode(403).body("title", equalTo("Second Factor Required"));
        // To others the private organization does not exist, whatever their sign-in.
        given().get(path).then().statusCode(404);
        given().header("X-Platform-Token", TestTokens.userWithSecondFactor(NamespaceDirectoryDouble.ADMIN, "admin", "public"))
                .get(path).then().statusCode(404);
    }

    @Test
    void anIdempotencyKeyReturnsTheFirstAnswer() {
        String path = "/alice/repositories/" + repo() + "/data/events";
        Map<String, Object> body = event("once", commit("k", Map.of("a", 1)));
        String key = UUID.randomUUID().toString();
        String first = asAlice("write").header("Idempotency-Key", key).contentType("application/json").body(body)
                .post(path).then().statusCode(201).extract().asString();
        String again = asAlice("write").header("Idempotency-Key", key).contentType("application/json").body(body)
                .post(path).then().statusCode(201).extract().asString();
        assertEquals(first, again);
        given().get(path).then().body("$", hasSize(1));
        asAlice("write").header("Idempotency-Key", key).contentType("application/json")
                .body(event("other", commit("k", Map.of("a", 2)))).post(path).then().statusCode(422)
                .body("errors[0].field", equalTo("Idempotency-Key"));
    }

    @Test
    void listsAreNewestFirstWithPagingAndFilters() throws Exception {
        String path = "/alice/repositories/" + repo() + "/data/events";
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            if (i == 3) {
                // Later events get a later millisecond than the middle one, whatever the machine's speed.
                long after = System.currentTimeMillis() + 2;
                while (System.currentTimeMillis() < after) {
                    java.util.concurrent.locks.LockSupport.parkNanos(500_000);
                }
            }
            ids.add(post(asAlice("write"), path, Map.of("note", "n" + i, "kind", i % 2 == 0 ? "Fork" : "FileUpload"))
                    .statusCode(201).extract().path("id"));
        }
        given().get(path + "?per_page=2").then().statusCode(200)
                .body("id", equalTo(List.of(ids.get(4), ids.get(3))))
                .header("Link", containsString("rel=\"next\""));
        given().get(path + "?per_page=2&page=3").then().body("id", equalTo(List.of(ids.get(0))));
        given().get(path + "?kind=Fork").then().body("id", equalTo(List.of(ids.get(4), ids.get(2), ids.get(0))));
        String middle = given().get(path + "/" + ids.get(2)).then().extract().path("created_at");
        // Strictly after the middle event: exactly the two written after it (an empty page passed before).
        given().get(path + "?since=" + middle).then().statusCode(200).body("id", equalTo(List.of(ids.get(4), ids.get(3))));
    }

    @Test
    void concurrentEventsKeepEveryRevisionChainConsistent() throws Exception {
        String path = "/alice/repositories/" + repo() + "/data/events";
        int n = 16;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int value = i;
                results.add(pool.submit(() -> asAlice("write").contentType("application/json")
                        .body(event("concurrent " + value, commit("shared", Map.of("value", value, "tags", List.of("t" + value))),
                                commit("own-" + value, Map.of("v", value))))
                        .post(path).statusCode()));
            }
            for (Future<Integer> f : results) {
                assertEquals(201, f.get());
            }
        } finally {
            pool.shutdown();
        }
        // Every event is there; the shared item's revisions are 1..n, each changeset leading to the next payload.
        List<Integer> eventIds = given().get(path + "?per_page=100").then().body("$", hasSize(n))
                .extract().jsonPath().getList("id");
        List<Map<String, Object>> shared = new ArrayList<>();
        for (Integer id : eventIds) {
            shared.addAll(given().get(path + "/" + id + "/commits").then().extract().jsonPath()
                    .getList("findAll { it.identifier.id == 'shared' }"));
        }
        shared.sort(java.util.Comparator.comparingInt(c -> (Integer) c.get("revision")));
        JsonNode state = JSON.createObjectNode();
        for (int i = 0; i < shared.size(); i++) {
            assertEquals(i + 1, shared.get(i).get("revision"));
            state = JsonPatch.apply(JSON.valueToTree(shared.get(i).get("changeset")), state);
            assertEquals(JSON.valueToTree(shared.get(i).get("payload")), state, "changeset " + (i + 1) + " leads to its payload");
        }
        assertEquals(n, shared.size());
    }

    /** A write answers with what it stored: the same record a read of the event gives. */
    @Test
    void theAnswerToAWriteIsWhatAReadGives() {
        String path = "/alice/repositories/" + repo() + "/data/events";
        for (Object body : List.of(Map.of("note", "alone", "kind", "Fork"),
                event("with commits", commit("a", Map.of("n", 1.50, "z", List.of(1, 2), "b", "x")),
                        commit("b", Map.of("k", "v")), commit("a", Map.of("n", 2))))) {
            Map<String, Object> written = post(asAlice("write"), path, body).statusCode(201).extract().jsonPath().getMap("$");
            Map<String, Object> read = given().get(path + "/" + written.get("id")).then().statusCode(200)
                    .extract().jsonPath().getMap("$");
            assertEquals(read, written);
        }
    }

    /**
     * The first events of a new repository, at once: each is stored in the one repository that
     * the first of them made (the others find it when they run again).
     */
    @Test
    void concurrentFirstEventsOfARepositoryAreAllKept() throws Exception {
        String path = "/alice/repositories/" + repo() + "/data/events";
        int n = 12;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int value = i;
                results.add(pool.submit(() -> asAlice("write").contentType("application/json")
                        .body(Map.of("note", "first " + value)).post(path).statusCode()));
            }
            for (Future<Integer> f : results) {
                assertEquals(201, f.get());
            }
        } finally {
            pool.shutdown();
        }
        given().get(path + "?per_page=100").then().statusCode(200).body("$", hasSize(n));
    }
}
