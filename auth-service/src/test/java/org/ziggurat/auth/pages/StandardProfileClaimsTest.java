package org.ziggurat.auth.pages;

import io.quarkus.test.junit.QuarkusTest;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport.App;
import org.ziggurat.platform.testing.TestTokens;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;

/**
 * Userinfo's profile scope answers every standard claim of OpenID Connect Core §5.4 that the
 * directory holds of the person, those they gave and no others; discovery lists them.
 */
@QuarkusTest
class StandardProfileClaimsTest {

    private static final String[] GIVEN = {"given_name", "family_name", "website", "locale", "zoneinfo"};

    /** alice's profile claims, set as the account page sets them (the directory's internal PATCH). */
    private static void aliceGives(String json) {
        given().baseUri(ConfigProvider.getConfig().getValue("quarkus.rest-client.directory.url", String.class))
                .header("X-Platform-Token", TestTokens.service("auth-service")).contentType("application/json").body(json)
                .patch("/internal/people/" + OpenIdConnectTest.ALICE + "/profile").then().statusCode(200);
    }

    @Test
    void theProfileScopeAnswersTheClaimsThePersonGave() {
        App app = OpenIdConnectTest.openIdApp(null);
        String profile = OpenIdConnectTest.passwordToken(app, "openid profile");
        String email = OpenIdConnectTest.passwordToken(app, "openid email");
        try {
            aliceGives("{\"given_name\": \"Alice\", \"family_name\": \"Liddell\", \"website\": \"https://alice.example/\", "
                    + "\"locale\": \"en-GB\", \"zoneinfo\": \"Europe/London\"}");
            given().auth().oauth2(profile).get("/oauth/userinfo").then().statusCode(200)
                    .body("sub", equalTo("101")).body("name", equalTo("ALICE")).body("preferred_username", equalTo("alice"))
                    .body("given_name", equalTo("Alice")).body("family_name", equalTo("Liddell"))
                    .body("website", equalTo("https://alice.example/")).body("locale", equalTo("en-GB"))
                    .body("zoneinfo", equalTo("Europe/London"))
                    .body("picture", equalTo("https://x.example/people/alice/avatar"))
                    .body("profile", equalTo("https://x.example/alice"))
                    .body("$", hasKey("updated_at"))
                    // The directory holds no nickname, middle name, birthdate or gender: none is made up.
                    .body("$", not(hasKey("nickname"))).body("$", not(hasKey("middle_name")))
                    .body("$", not(hasKey("email")));
            // Only the profile scope gives them.
            var withoutProfile = given().auth().oauth2(email).get("/oauth/userinfo").then().statusCode(200)
                    .body("email", equalTo("alice@example.org"));
            for (String claim : GIVEN) {
                withoutProfile.body("$", not(hasKey(claim)));
            }
            // A claim the person removed is left out, not sent empty.
            aliceGives("{\"family_name\": null, \"website\": null}");
            given().auth().oauth2(profile).get("/oauth/userinfo").then().statusCode(200)
                    .body("given_name", equalTo("Alice")).body("$", not(hasKey("family_name")))
                    .body("$", not(hasKey("website"))).body("locale", equalTo("en-GB"));
        } finally {
            aliceGives("{\"given_name\": null, \"family_name\": null, \"website\": null, \"locale\": null, \"zoneinfo\": null}");
        }
    }

    @Test
    void discoveryListsThem() {
        given().get("/.well-known/openid-configuration").then().statusCode(200).body("claims_supported",
                hasItems("name", "given_name", "family_name", "preferred_username", "picture", "profile", "website", "locale",
                        "zoneinfo", "updated_at"));
        given().get("/.well-known/openid-configuration").then().body("claims_supported", not(hasItems("nickname")));
    }

    /** The claims map of a person who gave none is as before: left out, never empty. */
    @Test
    void aPersonWhoGaveNoneGetsNone() {
        var person = new org.ziggurat.auth.oauth.UserInfoClaims.Person(7, "bo", "Bo", null, null, null, null, false, null,
                "", null, null, null, null);
        org.junit.jupiter.api.Assertions.assertEquals(Map.of("sub", "7", "name", "Bo", "preferred_username", "bo"),
                org.ziggurat.auth.oauth.UserInfoClaims.of(person, java.util.List.of("openid", "profile")));
    }
}
