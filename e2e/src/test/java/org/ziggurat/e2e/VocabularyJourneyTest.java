package org.ziggurat.e2e;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ziggurat.e2e.Platform.anonymous;
import static org.ziggurat.e2e.Platform.as;

/** A vocabulary of ancient places: written, read back with since and synsets, searched, exported and imported. */
class VocabularyJourneyTest {

    static Map<String, Object> label(String type, String body, String language) {
        return Map.of("type", type, "body", body, "language", language);
    }

    @Test
    void aVocabularyOfAncientPlaces() throws Exception {
        Platform.Person ada = Platform.signUp("ada");
        String token = Platform.accessToken(ada, "user", "write", "update");
        String ns = ada.username();
        as(token).contentType("application/json")
                .body(Map.of("slug", "places", "abbr", "PL", "title", "Ancient places", "definition", "Cities and regions"))
                .post("/" + ns + "/vocab/schemes").then().statusCode(201);
        String base = "/" + ns + "/vocab/schemes/places/concepts";
        String mesopotamia = as(token).contentType("application/json")
                .body(Map.of("status", "Stable", "labels", List.of(label("Preferred", "Mesopotamia", "en"),
                        label("Preferred", "Μεσοποταμία", "grc"))))
                .post(base).then().statusCode(201).extract().path("concepts[0].id");
        String babylon = as(token).contentType("application/json")
                .body(Map.of("broader", List.of(mesopotamia), "labels", List.of(label("Preferred", "Babylon", "en"),
                        label("Alternative", "Babel", "en"), label("Preferred", "Bābili", "akk"))))
                .post(base).then().statusCode(201).extract().path("concepts[0].id");
        String since = anonymous().get(base + "/" + babylon).then().statusCode(200)
                .body("concepts[0].broader[0].default_label", equalTo("Mesopotamia"))
                .extract().path("concepts[0].updated_at");
        // Ur must be written in a later millisecond than Babylon's update (since= is exclusive).
        long sinceMillis = java.time.Instant.parse(since).toEpochMilli();
        while (System.currentTimeMillis() <= sinceMillis) {
            Thread.onSpinWait();
        }
        String ur = as(token).contentType("application/json")
                .body(Map.of("broader", List.of(mesopotamia), "labels", List.of(label("Preferred", "Ur", "en"))))
                .post(base).then().statusCode(201).extract().path("concepts[0].id");

        anonymous().queryParam("since", since).get(base).then().statusCode(200).body("concepts.id", contains(ur));
        anonymous().queryParam("synsets", true).get(base + "/" + babylon).then().statusCode(200)
                .body("$", contains("Babylon", "Bābili", "Babel"));
        anonymous().queryParam("synsets", true).queryParam("in_scheme", "places").get("/" + ns + "/vocab/concepts")
                .then().statusCode(200).body("$", hasSize(3)).body("$", hasItem(List.of("Ur")));
        anonymous().get("/" + ns + "/vocab/schemes/places/concepts/" + mesopotamia).then()
                .body("concepts[0].narrower.default_label", org.hamcrest.Matchers.containsInAnyOrder("Babylon", "Ur"));
        // Search: accent- and case-insensitive, prefix and infix.
        anonymous().queryParam("q", "BABILI").get("/" + ns + "/vocab/concepts").then().body("concepts.id", contains(babylon));
        anonymous().queryParam("q", "bab*").get("/" + ns + "/vocab/concepts").then().body("concepts.id", contains(babylon));
        anonymous().queryParam("q", "*ποταμ*").get("/" + ns + "/vocab/concepts").then().body("concepts.id", contains(mesopotamia));

        // SKOS out and in again, into a second scheme.
        byte[] turtle = anonymous().accept("text/turtle").get("/" + ns + "/vocab/schemes/places").then().statusCode(200)
                .contentType(containsString("text/turtle")).extract().asByteArray();
        as(token).contentType("application/json").body(Map.of("slug", "places-copy", "title", "A copy"))
                .post("/" + ns + "/vocab/schemes").then().statusCode(201);
        String job = as(token).contentType("text/turtle").body(new String(turtle, StandardCharsets.UTF_8))
                .post("/" + ns + "/vocab/schemes/places-copy/import").then().statusCode(202).extract().header("Location");
        String state = "queued";
        for (int i = 0; i < 100 && (state.equals("queued") || state.equals("running")); i++) {
            Thread.sleep(100);
            state = as(token).get(job).then().statusCode(200).extract().path("state");
        }
        assertEquals("succeeded", state);
        anonymous().get("/" + ns + "/vocab/schemes/places-copy/concepts").then().statusCode(200)
                .body("concepts.default_label", org.hamcrest.Matchers.containsInAnyOrder("Mesopotamia", "Babylon", "Ur"));
    }
}
