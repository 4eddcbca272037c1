package org.ziggurat.auth;

import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import org.ziggurat.platform.testing.TestTokens;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;

/** Applications made through the real API, and form posts to the OAuth endpoints. */
public final class OAuthTestSupport {

    public static final String GATEWAY_ID = "ziggurat-gateway";
    public static final String GATEWAY_SECRET = "test-gateway-secret-0123456789abcdef";
    public static final long OWNER_ID = 900;

    private OAuthTestSupport() {
    }

    public record App(long id, String clientId, String secret) {
    }

    public static RequestSpecification asPerson(long id, String username, String... scopes) {
        return given().header("X-Platform-Token", TestTokens.user(id, username, scopes));
    }

    public static App createApp(boolean confidential, String scopes, String... redirectUris) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", "Test app");
        body.put("redirect_uris", redirectUris.length == 0 ? List.of("https://app.example.org/callback") : List.of(redirectUris));
        body.put("scopes", scopes);
        body.put("confidential", confidential);
        // The tests' applications take the password grant, which is opt-in (TokenEndpointTest).
        body.put("password_grant", true);
        var extract = asPerson(OWNER_ID, "owner", "admin").contentType("application/json").body(body)
                .post("/applications").then().statusCode(201).extract();
        return new App(((Number) extract.path("id")).longValue(), extract.path("client_id"), extract.path("client_secret"));
    }

    /** A form post; pairs of name, value (a null value leaves the field out). */
    public static ValidatableResponse post(String path, App client, String... pairs) {
        RequestSpecification request = given().contentType("application/x-www-form-urlencoded").accept("application/json");
        if (client != null) {
            request = request.auth().preemptive().basic(client.clientId(), client.secret() == null ? "" : client.secret());
        }
        StringBuilder form = new StringBuilder();
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] == null) {
                continue;
            }
            if (form.length() > 0) {
                form.append('&');
            }
            form.append(pairs[i]).append('=').append(java.net.URLEncoder.encode(pairs[i + 1], java.nio.charset.StandardCharsets.UTF_8));
        }
        return request.body(form.toString()).post(path).then();
    }

    public static ValidatableResponse introspect(String token) {
        return post("/oauth/introspect", new App(0, GATEWAY_ID, GATEWAY_SECRET), "token", token);
    }

    /** alice's tokens through the password grant of this client. */
    public static Map<String, Object> aliceTokens(App client, String scope) {
        return post("/oauth/token", client, "grant_type", "password", "username", "alice",
                "password", "alice password 1", "scope", scope).statusCode(200).extract().jsonPath().getMap("$");
    }
}
