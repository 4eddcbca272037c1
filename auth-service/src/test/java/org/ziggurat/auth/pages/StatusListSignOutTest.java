package org.ziggurat.auth.pages;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport.App;
import org.ziggurat.auth.endpoints.StatusListTest;
import org.ziggurat.auth.oauth.StatusListBits;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.Browser;
import static org.ziggurat.auth.pages.AuthorizeFlowTest.CALLBACK;
import static org.ziggurat.auth.pages.OpenIdConnectTest.authorize;
import static org.ziggurat.auth.pages.OpenIdConnectTest.exchange;
import static org.ziggurat.auth.pages.OpenIdConnectTest.url;

/**
 * Signing out ends the tokens of the session they were given in (OpenID Connect Core §11, without
 * offline_access): a JWT access token's status list bit says so to resource servers that only
 * verify signatures.
 */
@QuarkusTest
class StatusListSignOutTest {

    @Test
    void signingOutSetsTheBitsOfTheSessionsJwtAccessTokens() throws Exception {
        Map<String, Object> body = new HashMap<>();
        body.put("name", "Status list sign-out app");
        body.put("redirect_uris", List.of(CALLBACK));
        body.put("scopes", "openid user");
        body.put("post_logout_redirect_uris", List.of(OpenIdConnectTest.LOGGED_OUT));
        body.put("access_token_format", "jwt");
        var created = asPerson(900, "owner", "admin").contentType("application/json").body(body).post("/applications")
                .then().statusCode(201).extract();
        App app = new App(((Number) created.path("id")).longValue(), created.path("client_id"), created.path("client_secret"));
        Browser browser = new Browser();
        Map<String, Object> tokens = exchange(app, authorize(browser, url(app, "scope", "openid user")).get("code"));
        String access = (String) tokens.get("access_token");
        assertEquals(StatusListBits.VALID, StatusListTest.bit(access));

        OfflineAccessTest.signOut(browser, tokens.get("id_token"));
        StatusListTest.becomesInvalid(access);
    }
}
