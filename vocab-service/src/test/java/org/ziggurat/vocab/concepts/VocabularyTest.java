package org.ziggurat.vocab.concepts;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.TestTokens;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
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
class VocabularyTest {

    static RequestSpecification asAlice(String... scopes) {
        return given().header("X-Platform-Token", TestTokens.user(ALICE, "alice", scopes)).contentType("application/json");
    }

    static String scheme(String namespace, RequestSpecification as) {
        String slug = "places-" + UUID.randomUUID().toString().substring(0, 8);
        as.body(Map.of("slug", slug, "abbr", "PL", "title", "Ancient places", "definition", "Places of the ancient world"))
                .post("/" + namespace + "/vocab/schemes").then().statusCode(201);
        return slug;
    }

    static Map<String, Object> label(String type, String body, String language) {
        return Map.of("type", type, "body", body, "language", language);
    }

    static String concept(String slug, Map<String, Object> body) {
        return asAlice("write").body(body).post("/alice/vocab/schemes/" + slug + "/concepts").then().statusCode(201)
                .extract().path("concepts[0].id");
    }

    @Test
    void schemesAreCreatedReadChangedAndDeleted() {
        String slug = scheme("alice", asAlice("write"));
        String path = "/alice/vocab/schemes/" + slug;
        given().get(path).then().statusCode(200)
                .body("id", equalTo(slug)).body("abbr", equalTo("PL")).body("title", equalTo("Ancient places"))
                .body("definition", equalTo("Places of the ancient world"))
                .body("url", endsWith(path)).body("html_url", endsWith("/alice/vocab/" + slug))
                .body("creator.name", equalTo("alice")).body("creator.html_url", endsWith("/alice"));
        given().get("/alice/vocab/schemes").then().statusCode(200).body("id", hasItem(slug));
        asAlice("write").body(Map.of("slug", slug, "title", "Again")).post("/alice/vocab/schemes").then().statusCode(409);
        asAlice("write").body(Map.of("slug", "Bad Slug", "title", "x")).post("/alice/vocab/schemes").then().statusCode(422)
                .body("errors[0].field", equalTo("slug"));
        asAlice("write").body(Map.of("slug", "no-title")).post("/alice/vocab/schemes").then().statusCode(422);
        asAlice("write").body(Map.of("title", "Renamed")).patch(path).then().statusCode(403);
        asAlice("update").body(Map.of("title", "Renamed")).patch(path).then().statusCode(200).body("title", equalTo("Renamed"));
        asAlice("update").body(Map.of("slug", "other")).patch(path).then().statusCode(422);
        asAlice("update").delete(path).then().statusCode(204);
        given().get(path).then().statusCode(404).contentType("application/problem+json");
    }

    @Test
    void writingNeedsRightsAndReadingFollowsVisibility() {
        given().header("X-Platform-Token", TestTokens.user(BOB, "bob", "write")).contentType("application/json")
                .body(Map.of("slug", "x", "title", "x")).post("/alice/vocab/schemes").then().statusCode(403);
        given().contentType("application/json").body(Map.of("slug", "x", "title", "x")).post("/alice/vocab/schemes")
                .then().statusCode(401);
        String vault = scheme("vault", given().header("X-Platform-Token", TestTokens.user(BOB, "bob", "write"))
                .contentType("application/json"));
        given().get("/vault/vocab/schemes/" + vault).then().statusCode(404);
        asAlice("public").get("/vault/vocab/schemes/" + vault).then().statusCode(404);
        given().header("X-Platform-Token", TestTokens.user(BOB, "bob")).get("/vault/vocab/schemes/" + vault)
                .then().statusCode(200);
        given().get("/nobody-here/vocab/schemes").then().statusCode(404);
    }

    /** In an organization that requires a second factor: a sign-in with it, or RFC 9470's 401; no factor, 403. */
    @Test
    void anOrganizationThatRequiresASecondFactorAsksForASignInWithIt() {
        String strict = scheme("strict", given().header("X-Platform-Token",
                TestTokens.userWithSecondFactor(ALICE, "alice", "write")).contentType("application/json"));
        given().header("X-Platform-Token", TestTokens.userWithSecondFactor(ALICE, "alice"))
                .get("/strict/vocab/schemes/" + strict).then().statusCode(200);
        asAlice("public").get("/strict/vocab/schemes/" + strict).then().statusCode(401)
                .body("title", equalTo("Insufficient User Authentication"))
                .header("WWW-Authenticate", org.hamcrest.Matchers.containsString("acr_values=\"https://refeds.org/profile/mfa\""));
        asAlice("write").body(Map.of("slug", "y", "title", "y")).post("/strict/vocab/schemes").then().statusCode(401);
        given().header("X-Platform-Token", TestTokens.user(BOB, "bob")).get("/strict/vocab/schemes/" + strict)
                .then().statusCode(403).body("title", equalTo("Second Factor Required"));
    }

    @Test
    void conceptsCarryLabelsNotesRelationsAndMatches() {
        String slug = scheme("alice", asAlice("write"));
        String greece = concept(slug, Map.of("status", "Stable", "labels", List.of(label("Preferred", "Greece", "en"),
                label("Preferred", "Ἑλλάς", "grc"))));
        var created = asAlice("write").body(Map.of(
                        "labels", List.of(label("Preferred", "Athens", "eng"), label("Alternative", "Athenae", "la"),
                                label("Preferred", "Ἀθῆναι", "grc (el) - Ancient Greek"), label("Hidden", "Athina", "en")),
                        "notes", List.of(Map.of("type", "Definition", "body", "A city in Attica.", "language", "en")),
                        "broader", List.of(greece),
                        "matches", List.of(Map.of("property", "exactMatch", "url", "https://pleiades.stoa.org/places/579885"))))
                .post("/alice/vocab/schemes/" + slug + "/concepts").then().statusCode(201)
                .header("Location", matchesPattern(".*/alice/vocab/schemes/" + slug + "/concepts/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}"))
                .body("concepts", hasSize(1))
                .body("concepts[0].status", equalTo("Unstable"))
                .body("concepts[0].default_label", equalTo("Athens"))
                .body("concepts[0].labels.language", hasItem("eng (en) - English"))
                .body("concepts[0].labels.type", contains("Preferred", "Alternative", "Preferred", "Hidden"))
                .body("concepts[0].notes[0].language", equalTo("eng (en) - English"))
                .body("concepts[0].broader[0].default_label", equalTo("Greece"))
                .body("concepts[0].broader[0].url", endsWith("/concepts/" + greece))
                .body("concepts[0].matches[0].property", equalTo("exactMatch"))
                .body("concepts[0].creator.name", equalTo("alice"))
                .body("concepts[0].contributors.name", contains("alice"))
                .body("concepts[0].in_scheme.id", equalTo(slug))
                .body("concepts[0].created_at", matchesPattern(".*\\.\\d{3}Z")).extract();
        String athens = created.path("concepts[0].id");
        // The second block counts the scheme's concepts.
        assertEquals("0001", greece.split("-")[1]);
        assertEquals("0002", athens.split("-")[1]);
        given().get("/alice/vocab/schemes/" + slug + "/concepts/" + greece).then().statusCode(200)
                .body("concepts[0].narrower.default_label", contains("Athens"));
        given().get("/alice/vocab/schemes/" + slug + "/concepts/" + athens + "?synsets=true").then().statusCode(200)
                .body("$", contains("Athens", "Ἀθῆναι", "Athenae", "Athina"));
        given().get("/alice/vocab/schemes/" + slug + "/concepts/00000000-0000-0000-0000").then().statusCode(404);
        given().get("/alice/vocab/schemes/" + slug + "/concepts/not-an-id").then().statusCode(404);
    }

    @Test
    void skosIntegrityIsKept() {
        String slug = scheme("alice", asAlice("write"));
        String path = "/alice/vocab/schemes/" + slug + "/concepts";
        asAlice("write").body(Map.of("labels", List.of(label("Preferred", "A", "en"), label("Preferred", "B", "en"))))
                .post(path).then().statusCode(422).body("errors[0].field", equalTo("labels[1].type"));
        asAlice("write").body(Map.of("labels", List.of(label("Preferred", "A", "en"), label("Alternative", "A", "en"))))
                .post(path).then().statusCode(422).body("errors[0].field", equalTo("labels[1].body"));
        asAlice("write").body(Map.of("labels", List.of(label("Alternative", "A", "en"))))
                .post(path).then().statusCode(422).body("errors[0].field", equalTo("labels"));
        asAlice("write").body(Map.of("labels", List.of(label("Preferred", "A", "klingon"))))
                .post(path).then().statusCode(422).body("errors[0].field", equalTo("labels[0].language"));
        asAlice("write").body(Map.of("status", "Final", "labels", List.of(label("Preferred", "A", "en"))))
                .post(path).then().statusCode(422).body("errors[0].field", equalTo("status"));
        asAlice("write").body(Map.of("labels", List.of(label("Preferred", "A", "en")), "broader",
                List.of("abcdef01-0009-0000-0000"))).post(path).then().statusCode(422).body("errors[0].field", equalTo("broader[0]"));
        asAlice("write").body(Map.of("labels", List.of(label("Preferred", "A", "en")), "matches",
                List.of(Map.of("property", "sameAs", "url", "javascript:x")))).post(path).then().statusCode(422)
                .body("errors.field", hasItem("matches[0].property")).body("errors.field", hasItem("matches[0].url"));
        asAlice("write").body("{\"labels\":").post(path).then().statusCode(400);
        asAlice("write").body(Map.of("labels", List.of(label("Preferred", "A", "en")))).post("/alice/vocab/schemes/none/concepts")
                .then().statusCode(404);
    }

    /** Every concept id of a list, following its Link header's next pages (at most 50). */
    static List<String> allPages(String first) {
        List<String> ids = new java.util.ArrayList<>();
        String next = first;
        for (int page = 0; next != null && page < 50; page++) {
            var answer = given().get(next).then().statusCode(200).extract();
            ids.addAll(answer.path("concepts.id"));
            java.util.regex.Matcher link = java.util.regex.Pattern.compile("<([^>]+)>; rel=\"next\"")
                    .matcher(String.valueOf(answer.header("Link")));
            next = link.find() ? java.net.URI.create(link.group(1)).getRawPath() + "?" + java.net.URI.create(link.group(1)).getRawQuery()
                    : null;
        }
        return ids;
    }

    @Test
    void listsFilterSortPageAndGiveSynsets() {
        String slug = scheme("alice", asAlice("write"));
        String a = concept(slug, Map.of("labels", List.of(label("Preferred", "Alpha", "en"))));
        String b = concept(slug, Map.of("labels", List.of(label("Preferred", "Beta", "en"), label("Alternative", "B", "en"))));
        String c = concept(slug, Map.of("labels", List.of(label("Preferred", "Gamma", "en"))));
        String path = "/alice/vocab/schemes/" + slug + "/concepts";
        given().get(path).then().statusCode(200).body("concepts.id", contains(a, b, c));
        given().get(path + "?sort=updated_at_desc").then().body("concepts.id", contains(c, b, a));
        given().get(path + "?per_page=2").then().body("concepts.id", contains(a, b)).header("Link", containsString("rel=\"next\""));
        given().get(path + "?per_page=2&page=2").then().body("concepts.id", contains(c));
        String since = given().get(path + "/" + a).then().extract().path("concepts[0].updated_at");
        given().get(path + "?since=" + since).then().body("concepts.id", org.hamcrest.Matchers.not(hasItem(a)));
        given().get(path + "?synsets=true").then().statusCode(200)
                .body("$", contains(List.of("Alpha"), List.of("Beta", "B"), List.of("Gamma")));
        given().get("/alice/vocab/concepts?in_scheme=" + slug).then().statusCode(200).body("concepts.id", contains(a, b, c));
        // The namespace-wide list holds it, on whichever page (other tests add concepts too).
        org.junit.jupiter.api.Assertions.assertTrue(allPages("/alice/vocab/concepts?per_page=100").contains(b));
        given().get(path + "?since=last-week").then().statusCode(400).body("errors[0].field", equalTo("since"));
        given().get(path + "?sort=title").then().statusCode(400);
        given().get(path + "?per_page=101").then().statusCode(400);
        given().get(path + "?synsets=maybe").then().statusCode(400);
        given().get("/alice/vocab/concepts?in_scheme=none").then().statusCode(404);
    }

    @Test
    void conceptsChangeWithoutCyclesAndCanBeDeleted() {
        String slug = scheme("alice", asAlice("write"));
        String path = "/alice/vocab/schemes/" + slug + "/concepts/";
        String top = concept(slug, Map.of("labels", List.of(label("Preferred", "Region", "en"))));
        String middle = concept(slug, Map.of("labels", List.of(label("Preferred", "City", "en")), "broader", List.of(top)));
        String leaf = concept(slug, Map.of("labels", List.of(label("Preferred", "Quarter", "en")), "broader", List.of(middle)));
        String before = given().get(path + middle).then().extract().path("concepts[0].updated_at");
        // A later millisecond for the change, so that an unchanged timestamp cannot pass below.
        java.time.Instant changeAfter = java.time.Instant.parse(before).plusMillis(2);
        while (java.time.Instant.now().isBefore(changeAfter)) {
            java.util.concurrent.locks.LockSupport.parkNanos(500_000);
        }

        asAlice("write").body(Map.of("status", "Stable")).patch(path + middle).then().statusCode(403);
        asAlice("update").body(Map.of("status", "Stable", "labels", List.of(label("Preferred", "Town", "en"),
                        label("Alternative", "Polis", "en")))).patch(path + middle).then().statusCode(200)
                .body("concepts[0].status", equalTo("Stable"))
                .body("concepts[0].default_label", equalTo("Town"))
                .body("concepts[0].broader.default_label", contains("Region"))
                .body("concepts[0].contributors.name", contains("alice"));
        String after = given().get(path + middle).then().extract().path("concepts[0].updated_at");
        org.junit.jupiter.api.Assertions.assertTrue(java.time.Instant.parse(after).isAfter(java.time.Instant.parse(before)),
                before + " then " + after);

        // A broader link back down the hierarchy, or to itself, is a cycle.
        asAlice("update").body(Map.of("broader", List.of(leaf))).patch(path + top).then().statusCode(422)
                .body("errors[0].field", equalTo("broader"));
        asAlice("update").body(Map.of("broader", List.of(top))).patch(path + top).then().statusCode(422);
        asAlice("update").body(Map.of("labels", List.of(label("Alternative", "Only", "en")))).patch(path + top)
                .then().statusCode(422).body("errors[0].field", equalTo("labels"));
        asAlice("update").body("[1]").patch(path + top).then().statusCode(400);

        asAlice("update").delete(path + middle).then().statusCode(204);
        given().get(path + middle).then().statusCode(404);
        given().get(path + leaf).then().statusCode(200).body("concepts[0].broader", hasSize(0));
        asAlice("update").delete(path + middle).then().statusCode(404);
        asAlice("update").body(Map.of("status", "Stable")).patch(path + middle).then().statusCode(404);
    }

    @Test
    void readsCarryETagsAndAnswer304WhileNothingChanged() {
        String slug = scheme("alice", asAlice("write"));
        String id = concept(slug, Map.of("labels", List.of(label("Preferred", "Delphi", "en"))));
        String one = "/alice/vocab/schemes/" + slug + "/concepts/" + id;
        String list = "/alice/vocab/schemes/" + slug + "/concepts";
        String etag = given().get(one).then().statusCode(200).header("ETag", matchesPattern("\"[0-9a-f]+\"")).extract().header("ETag");
        given().header("If-None-Match", etag).get(one).then().statusCode(304);
        String listEtag = given().get(list).then().statusCode(200).extract().header("ETag");
        given().header("If-None-Match", listEtag).get(list).then().statusCode(304);
        asAlice("update").body(Map.of("status", "Testing")).patch(one).then().statusCode(200);
        given().header("If-None-Match", etag).get(one).then().statusCode(200).body("concepts[0].status", equalTo("Testing"));
        given().header("If-None-Match", listEtag).get(list).then().statusCode(200);
    }
}
