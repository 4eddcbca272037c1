package org.ziggurat.vocab.concepts;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.ziggurat.platform.testing.TestTokens;

import java.util.List;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.ziggurat.platform.testing.NamespaceDirectoryDouble.BOB;
import static org.ziggurat.vocab.concepts.VocabularyTest.asAlice;
import static org.ziggurat.vocab.concepts.VocabularyTest.concept;
import static org.ziggurat.vocab.concepts.VocabularyTest.label;
import static org.ziggurat.vocab.concepts.VocabularyTest.scheme;

@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConceptSearchTest {

    String slug;
    String babylon;
    String babel;
    String athens;
    String thebes;
    String percent;

    // Once per class; in @BeforeEach because RestAssured learns the test port only then.
    @BeforeEach
    void vocabulary() {
        if (slug != null) {
            return;
        }
        slug = scheme("alice", asAlice("write"));
        babylon = concept(slug, Map.of("labels", List.of(label("Preferred", "Babylon", "en"),
                label("Preferred", "Bābil", "akk"), label("Alternative", "Babylone", "fr"))));
        // "Babel" is only an alternative label of this one: it must come after the Preferred matches.
        babel = concept(slug, Map.of("labels", List.of(label("Preferred", "Tower of confusion", "en"),
                label("Alternative", "Babel", "en"), label("Hidden", "babble", "en"))));
        athens = concept(slug, Map.of("labels", List.of(label("Preferred", "Athens", "en"),
                label("Preferred", "Ἀθῆναι", "grc"), label("Preferred", "Αθήνα", "ell"))));
        thebes = concept(slug, Map.of("labels", List.of(label("Preferred", "Thebes", "en"),
                label("Hidden", "Θῆβαι", "grc"))));
        percent = concept(slug, Map.of("labels", List.of(label("Preferred", "100% Babylonian_ware", "en"))));
    }

    List<String> ids(String query) {
        return given().queryParam("q", query).queryParam("in_scheme", slug).get("/alice/vocab/concepts")
                .then().statusCode(200).extract().path("concepts.id");
    }

    @Test
    void prefixInfixSuffixAndWholeLabels() {
        given().queryParam("q", "bab*").get("/alice/vocab/schemes/" + slug + "/concepts").then().statusCode(200)
                .body("concepts.id", contains(babylon, babel));
        given().queryParam("q", "*ylon*").get("/alice/vocab/schemes/" + slug + "/concepts").then()
                .body("concepts.id", contains(percent, babylon));
        given().queryParam("q", "*bes").get("/alice/vocab/schemes/" + slug + "/concepts").then()
                .body("concepts.id", contains(thebes));
        // Without *, the whole label: "Babylon" is not "Babylonian".
        given().queryParam("q", "babylon").get("/alice/vocab/schemes/" + slug + "/concepts").then()
                .body("concepts.id", contains(babylon));
    }

    @Test
    void caseAndAccentsDoNotMatter() {
        assertEquals(List.of(babylon), ids("BABIL"));
        assertEquals(List.of(babylon), ids("bābil"));
        assertEquals(List.of(athens), ids("αθηναι"));
        assertEquals(List.of(athens), ids("ἈΘΗΝΑΙ"));
        assertEquals(List.of(thebes), ids("θηβαι"));
    }

    @Test
    void preferredLabelsComeBeforeAlternativeAndHidden() {
        // babylon (Preferred "babylon"), percent (Preferred "100% ..."), babel (Alternative "babel", Hidden "babble").
        given().queryParam("q", "*bab*").queryParam("in_scheme", slug).get("/alice/vocab/concepts").then()
                .body("concepts.id", contains(percent, babylon, babel));
        given().queryParam("q", "babb*").queryParam("in_scheme", slug).get("/alice/vocab/concepts").then()
                .body("concepts.id", contains(babel));
    }

    @Test
    void langNarrowsToLabelsOfThatLanguage() {
        given().queryParam("q", "bab*").queryParam("lang", "fr").queryParam("in_scheme", slug).get("/alice/vocab/concepts")
                .then().statusCode(200).body("concepts.id", contains(babylon));
        given().queryParam("q", "bab*").queryParam("lang", "deu").queryParam("in_scheme", slug).get("/alice/vocab/concepts")
                .then().statusCode(200).body("concepts", empty());
        given().queryParam("q", "bab*").queryParam("lang", "klingonish").get("/alice/vocab/concepts")
                .then().statusCode(400).body("errors[0].field", equalTo("lang"));
    }

    @Test
    void likeWildcardsInTheQueryAreTakenLiterally() {
        assertEquals(List.of(percent), ids("100%*"));
        assertEquals(List.of(), ids("1_0*"));
        assertEquals(List.of(percent), ids("*n_ware"));
        assertEquals(List.of(), ids("%"));
    }

    @Test
    void searchesPageAndGiveSynsets() {
        given().queryParam("q", "*bab*").queryParam("in_scheme", slug).queryParam("per_page", 2).get("/alice/vocab/concepts")
                .then().statusCode(200).body("concepts", hasSize(2))
                .header("Link", org.hamcrest.Matchers.containsString("rel=\"next\""));
        given().queryParam("q", "*bab*").queryParam("in_scheme", slug).queryParam("per_page", 2).queryParam("page", 2)
                .get("/alice/vocab/concepts").then().body("concepts.id", contains(babel));
        given().queryParam("q", "bab*").queryParam("in_scheme", slug).queryParam("synsets", true).get("/alice/vocab/concepts")
                .then().statusCode(200).body("[1]", contains("Tower of confusion", "Babel", "babble"));
    }

    @Test
    void badSearchesAreRefusedClearly() {
        for (String q : new String[] {"", "  ", "*", "**", "*ab*", "*a", "x".repeat(201), "bab\u0000*"}) {
            given().queryParam("q", q).get("/alice/vocab/concepts").then().log().ifValidationFails().statusCode(400)
                    .body("errors[0].field", equalTo("q"));
        }
        given().queryParam("q", "bab*").queryParam("sort", "updated_at_desc").get("/alice/vocab/concepts").then()
                .statusCode(400).body("errors[0].field", equalTo("sort"));
        given().queryParam("lang", "en").get("/alice/vocab/concepts").then().statusCode(400)
                .body("errors[0].field", equalTo("lang"));
    }

    @Test
    void searchFollowsVisibility() {
        String vault = scheme("vault", given().header("X-Platform-Token", TestTokens.user(BOB, "bob", "write"))
                .contentType("application/json"));
        given().header("X-Platform-Token", TestTokens.user(BOB, "bob", "write")).contentType("application/json")
                .body(Map.of("labels", List.of(label("Preferred", "Secret Babylon", "en"))))
                .post("/vault/vocab/schemes/" + vault + "/concepts").then().statusCode(201);
        given().queryParam("q", "*babylon").get("/vault/vocab/concepts").then().statusCode(404);
        given().header("X-Platform-Token", TestTokens.user(BOB, "bob")).queryParam("q", "*babylon")
                .get("/vault/vocab/concepts").then().statusCode(200).body("concepts", hasSize(1));
        // Other namespaces' labels never leak into a namespace's results.
        given().queryParam("q", "secret*").get("/alice/vocab/concepts").then().statusCode(200).body("concepts", empty());
    }
}
