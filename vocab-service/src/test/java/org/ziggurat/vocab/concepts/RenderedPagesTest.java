package org.ziggurat.vocab.concepts;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.ServiceDatabase;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ziggurat.vocab.concepts.VocabularyTest.asAlice;
import static org.ziggurat.vocab.concepts.VocabularyTest.concept;
import static org.ziggurat.vocab.concepts.VocabularyTest.label;
import static org.ziggurat.vocab.concepts.VocabularyTest.scheme;

/**
 * Views and pages are kept as rendered under their scheme's revision (RenderedPages): every write
 * through the API shows at once in every view of what it changed, and an unchanged scheme's pages
 * are answered as kept.
 */
@QuarkusTest
class RenderedPagesTest {

    /** Each view a write can change, read before and after it. */
    private record Views(String slug, String word) {
        String schemePage() {
            return "/alice/vocab/schemes/" + slug + "/concepts";
        }

        String namespaceSearch() {
            return "/alice/vocab/concepts?q=" + word + "*";
        }

        List<String> schemeLabels() {
            return given().get(schemePage()).then().statusCode(200).extract().path("concepts.default_label");
        }

        List<String> searchLabels() {
            return given().get(namespaceSearch()).then().statusCode(200).extract().path("concepts.default_label");
        }
    }

    private static Views fresh() {
        String word = "z" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        return new Views(scheme("alice", asAlice("write")), word);
    }

    private static Map<String, Object> named(String body) {
        return Map.of("labels", List.of(label("Preferred", body, "en")));
    }

    @Test
    void everyWriteThroughTheApiShowsInEveryViewAtOnce() {
        Views v = fresh();
        String uruk = concept(v.slug(), named(v.word() + " Uruk"));
        String conceptPath = v.schemePage() + "/" + uruk;
        // Read (and so kept) before each change.
        given().get(conceptPath).then().statusCode(200).body("concepts[0].default_label", equalTo(v.word() + " Uruk"));
        assertEquals(List.of(v.word() + " Uruk"), v.schemeLabels());
        assertEquals(List.of(v.word() + " Uruk"), v.searchLabels());

        asAlice("update").body(named(v.word() + " Warka")).patch(conceptPath).then().statusCode(200);
        given().get(conceptPath).then().statusCode(200).body("concepts[0].default_label", equalTo(v.word() + " Warka"));
        assertEquals(List.of(v.word() + " Warka"), v.schemeLabels());
        assertEquals(List.of(v.word() + " Warka"), v.searchLabels());

        String eridu = concept(v.slug(), Map.of("labels", List.of(label("Preferred", v.word() + " Eridu", "en")),
                "broader", List.of(uruk)));
        given().get(conceptPath).then().body("concepts[0].narrower.default_label", contains(v.word() + " Eridu"));
        org.hamcrest.MatcherAssert.assertThat(v.schemeLabels(), containsInAnyOrder(v.word() + " Warka", v.word() + " Eridu"));
        org.hamcrest.MatcherAssert.assertThat(v.searchLabels(), containsInAnyOrder(v.word() + " Warka", v.word() + " Eridu"));

        // The scheme's own fields are part of every concept view.
        asAlice("update").body(Map.of("title", "Renamed " + v.word())).patch("/alice/vocab/schemes/" + v.slug())
                .then().statusCode(200);
        given().get(conceptPath).then().body("concepts[0].in_scheme.title", equalTo("Renamed " + v.word()));

        asAlice("update").delete(v.schemePage() + "/" + eridu).then().statusCode(204);
        given().get(conceptPath).then().statusCode(200).body("concepts[0].narrower", empty());
        assertEquals(List.of(v.word() + " Warka"), v.schemeLabels());
        assertEquals(List.of(v.word() + " Warka"), v.searchLabels());

        // An import is a write too.
        String doc = "@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n<https://example.org/" + v.word()
                + "> a skos:Concept ; skos:prefLabel \"" + v.word() + " Ur\"@en .\n";
        Map<String, Object> job = SkosImportExportTest.importInto("alice", v.slug(), "text/turtle",
                doc.getBytes(StandardCharsets.UTF_8));
        assertEquals("succeeded", job.get("state"), job.toString());
        org.hamcrest.MatcherAssert.assertThat(v.schemeLabels(), containsInAnyOrder(v.word() + " Warka", v.word() + " Ur"));
        org.hamcrest.MatcherAssert.assertThat(v.searchLabels(), containsInAnyOrder(v.word() + " Warka", v.word() + " Ur"));

        // A scheme deleted takes its concepts out of the namespace's lists.
        asAlice("update").delete("/alice/vocab/schemes/" + v.slug()).then().statusCode(204);
        assertEquals(List.of(), v.searchLabels());
        given().get(conceptPath).then().statusCode(404);
    }

    @Test
    void aPageIsAnsweredAsKeptUntilItsSchemesRevisionChanges() throws Exception {
        Views v = fresh();
        String id = concept(v.slug(), named(v.word() + " Nineveh"));
        String conceptPath = v.schemePage() + "/" + id;
        String etag = given().get(conceptPath).then().statusCode(200).extract().header("ETag");
        v.schemeLabels();
        v.searchLabels();

        // Changed behind the service's back, without a new revision: the kept renderings answer, as
        // they do for the same bytes and ETag in every other request.
        sql("UPDATE vocab.label SET body = '" + v.word() + " Mosul' WHERE concept_id = '" + id + "'");
        given().get(conceptPath).then().statusCode(200).header("ETag", etag)
                .body("concepts[0].default_label", equalTo(v.word() + " Nineveh"));
        given().header("If-None-Match", etag).get(conceptPath).then().statusCode(304);
        assertEquals(List.of(v.word() + " Nineveh"), v.schemeLabels());
        assertEquals(List.of(v.word() + " Nineveh"), v.searchLabels());

        // A new revision, as every write gives, and every view is read again.
        sql("UPDATE vocab.scheme SET revision = nextval('vocab.scheme_revision') WHERE namespace = 'alice' AND slug = '"
                + v.slug() + "'");
        given().get(conceptPath).then().statusCode(200).header("ETag", not(equalTo(etag)))
                .body("concepts[0].default_label", equalTo(v.word() + " Mosul"));
        assertEquals(List.of(v.word() + " Mosul"), v.schemeLabels());
        assertEquals(List.of(v.word() + " Mosul"), v.searchLabels());
    }

    @Test
    void aNamespaceListChangesWithAnyOfItsSchemes() {
        Views first = fresh();
        Views second = new Views(scheme("alice", asAlice("write")), first.word());
        concept(first.slug(), named(first.word() + " Babylon"));
        assertEquals(List.of(first.word() + " Babylon"), first.searchLabels());
        concept(second.slug(), named(first.word() + " Borsippa"));
        org.hamcrest.MatcherAssert.assertThat(first.searchLabels(),
                containsInAnyOrder(first.word() + " Babylon", first.word() + " Borsippa"));
        // Each page is its own: other query parameters, other pages.
        given().get(first.namespaceSearch() + "&per_page=1").then().statusCode(200)
                .body("concepts", org.hamcrest.Matchers.hasSize(1));
    }

    private static void sql(String statement) throws Exception {
        try (var c = ServiceDatabase.connect(); var s = c.createStatement()) {
            assertEquals(1, s.executeUpdate(statement), statement);
        }
    }
}
