package org.ziggurat.directory.people;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryTestSupport.Person;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.directory.DirectoryTestSupport.as;
import static org.ziggurat.directory.DirectoryTestSupport.asService;
import static org.ziggurat.directory.DirectoryTestSupport.signUp;

/**
 * The standard profile claims a person gives with PATCH /user (OpenID Connect Core §5.4):
 * given_name, family_name, website, locale, zoneinfo. Each optional, null removes it; the website
 * is public, the others the person's own and the relying parties' they allow the profile scope.
 */
@QuarkusTest
class ProfileClaimsTest {

    private static final Map<String, Object> ALL = Map.of("given_name", "Ada", "family_name", "King",
            "website", "https://ada.example/notes", "locale", "en-gb", "zoneinfo", "Europe/London");

    @Test
    void theClaimsAreSetShownToTheirOwnerAndRemovedWithNull() {
        Person ada = signUp("ada");
        as(ada, "user").get("/user").then().statusCode(200).body("website", nullValue())
                .body("$", not(hasKey("given_name"))).body("$", not(hasKey("locale")));
        Instant before = updatedAt(ada);

        as(ada, "user").contentType("application/json").body(ALL).patch("/user").then().statusCode(200)
                .body("given_name", equalTo("Ada")).body("family_name", equalTo("King"))
                .body("website", equalTo("https://ada.example/notes"))
                .body("locale", equalTo("en-GB")) // in its canonical case
                .body("zoneinfo", equalTo("Europe/London"))
                .body("display_name", equalTo("Dr. ada"));
        as(ada, "user").get("/user").then().statusCode(200).body("given_name", equalTo("Ada"))
                .body("family_name", equalTo("King")).body("locale", equalTo("en-GB"))
                .body("zoneinfo", equalTo("Europe/London")).body("website", equalTo("https://ada.example/notes"));

        // The private ones only with the user scope, as the sign-in address.
        as(ada, "public").get("/user").then().statusCode(200).body("website", equalTo("https://ada.example/notes"))
                .body("$", not(hasKey("given_name"))).body("$", not(hasKey("family_name")))
                .body("$", not(hasKey("locale"))).body("$", not(hasKey("zoneinfo")));
        // Anyone sees the website, nobody else the rest.
        given().get("/people/" + ada.username()).then().statusCode(200)
                .body("website", equalTo("https://ada.example/notes"))
                .body("$", not(hasKey("given_name"))).body("$", not(hasKey("family_name")))
                .body("$", not(hasKey("locale"))).body("$", not(hasKey("zoneinfo")));

        // A field left out stays; null removes it.
        as(ada, "user").contentType("application/json").body("{\"family_name\": null, \"website\": null}")
                .patch("/user").then().statusCode(200).body("given_name", equalTo("Ada"))
                .body("$", not(hasKey("family_name"))).body("website", nullValue())
                .body("locale", equalTo("en-GB")).body("zoneinfo", equalTo("Europe/London"));
        given().get("/people/" + ada.username()).then().body("website", nullValue());

        // The directory's answer to auth-service for userinfo (the profile scope) carries them.
        asService("auth-service").get("/internal/people/" + ada.id() + "/claims").then().statusCode(200)
                .body("given_name", equalTo("Ada")).body("locale", equalTo("en-GB"))
                .body("zoneinfo", equalTo("Europe/London")).body("$", not(hasKey("family_name")))
                .body("$", not(hasKey("website")));
        // A change of them is a change of the profile: updated_at moves.
        assertTrue(updatedAt(ada).isAfter(before), before + " then " + updatedAt(ada));
    }

    /** When the profile last changed, as userinfo tells it. */
    private static Instant updatedAt(Person person) {
        return Instant.parse(asService("auth-service").get("/internal/people/" + person.id() + "/claims")
                .then().statusCode(200).extract().path("updated_at"));
    }

    @Test
    void eachBadValueIs422NamingItsField() {
        Person bo = signUp("bo");
        Map<String, Object> bad = new HashMap<>();
        bad.put("given_name", " ");
        bad.put("family_name", "x".repeat(256));
        bad.put("website", "javascript:alert(1)");
        bad.put("locale", "en_GB");
        bad.put("zoneinfo", "Europe/Atlantis");
        for (Map.Entry<String, Object> one : bad.entrySet()) {
            as(bo, "user").contentType("application/json").body(Map.of(one.getKey(), one.getValue())).patch("/user")
                    .then().statusCode(422).contentType("application/problem+json")
                    .body("errors.size()", equalTo(1)).body("errors[0].field", equalTo(one.getKey()));
        }
        // All at once: every one named, and nothing changed.
        as(bo, "user").contentType("application/json").body(bad).patch("/user").then().statusCode(422)
                .body("errors.size()", equalTo(5));
        for (Object[] more : new Object[][] {{"given_name", "Bo\u0007"}, {"website", "ftp://bo.example/"},
                {"website", "https://user:secret@bo.example/"}, {"website", "/relative/path"}, {"website", "https://"},
                {"locale", "not a tag"}, {"locale", "en-GB-!!"}, {"locale", "x".repeat(40)}, {"zoneinfo", "+01:00"},
                {"zoneinfo", "europe/paris"}, {"zoneinfo", 7}, {"locale", true}}) {
            as(bo, "user").contentType("application/json").body(Map.of((String) more[0], more[1])).patch("/user")
                    .then().statusCode(422).body("errors[0].field", equalTo(more[0]));
        }
        as(bo, "user").get("/user").then().body("website", nullValue()).body("$", not(hasKey("given_name")));

        // Good values of each kind.
        as(bo, "user").contentType("application/json").body(Map.of("locale", "fr", "zoneinfo", "America/Los_Angeles",
                "website", "http://bo.example", "given_name", "Bo-Ngoc", "family_name", "de la Cruz"))
                .patch("/user").then().statusCode(200).body("locale", equalTo("fr"))
                .body("zoneinfo", equalTo("America/Los_Angeles")).body("website", equalTo("http://bo.example"))
                .body("family_name", equalTo("de la Cruz"));
        as(bo, "user").contentType("application/json").body(Map.of("locale", "zh-Hant-TW")).patch("/user")
                .then().statusCode(200).body("locale", equalTo("zh-Hant-TW"));
        // Only with the user scope, as every change of the profile.
        as(bo, "public").contentType("application/json").body(Map.of("given_name", "Eve")).patch("/user")
                .then().statusCode(403);
    }

    /** The contract that auth-service's directory double keeps too (its DirectoryDoubleContractTest). */
    @Test
    void theInternalApiKeepsTheContract() throws Exception {
        org.ziggurat.platform.testing.ProfileClaimsContract.assertProfileClaimsLikeTheDirectory(
                java.net.URI.create("http://localhost:" + io.restassured.RestAssured.port), signUp("dee").id());
    }

    /** The account page's profile (auth-service) reads and changes them with the same rules. */
    @Test
    void theAccountPagesProfileCarriesThem() {
        Person cy = signUp("cy");
        asService("auth-service").contentType("application/json").body(Map.of("given_name", "Cy", "zoneinfo", "Asia/Tokyo"))
                .patch("/internal/people/" + cy.id() + "/profile").then().statusCode(200)
                .body("given_name", equalTo("Cy")).body("zoneinfo", equalTo("Asia/Tokyo")).body("website", nullValue());
        asService("auth-service").get("/internal/people/" + cy.id() + "/profile").then().statusCode(200)
                .body("given_name", equalTo("Cy")).body("zoneinfo", equalTo("Asia/Tokyo"));
        asService("auth-service").contentType("application/json").body(Map.of("website", "mailto:cy@example.org"))
                .patch("/internal/people/" + cy.id() + "/profile").then().statusCode(422)
                .body("errors[0].field", equalTo("website"));
    }
}
