package org.ziggurat.e2e;

import com.nimbusds.oauth2.sdk.AccessTokenResponse;
import com.nimbusds.oauth2.sdk.ResourceOwnerPasswordCredentialsGrant;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.as.AuthorizationServerMetadata;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.id.Issuer;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;

import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every journey needs: the API through the gateway, people, and tokens from a standard OAuth client. */
public final class Platform {

    public record Person(long id, String username, String password) {
    }

    private static AuthorizationServerMetadata metadata;

    private Platform() {
    }

    public static String api() {
        return Stack.get().api;
    }

    /** A request whose both sides are checked against the OpenAPI document ({@link ContractCheck}). */
    public static RequestSpecification anonymous() {
        return RestAssured.given().baseUri(api()).urlEncodingEnabled(true).filter(ContractCheck.exchanges());
    }

    /**
     * A request that is off the contract on purpose (bad input, no token, a spent one): only the
     * answer is checked against the document.
     */
    public static RequestSpecification offContract() {
        return RestAssured.given().baseUri(api()).urlEncodingEnabled(true).filter(ContractCheck.answers());
    }

    public static RequestSpecification as(String accessToken) {
        return anonymous().header("Authorization", "Bearer " + accessToken);
    }

    /** The server's RFC 8414 metadata, found and read by the OAuth library from the issuer alone. */
    public static synchronized AuthorizationServerMetadata metadata() {
        if (metadata == null) {
            try {
                metadata = AuthorizationServerMetadata.resolve(new Issuer(api()));
            } catch (Exception e) {
                throw new IllegalStateException("The OAuth client cannot configure itself from the metadata: " + e, e);
            }
        }
        return metadata;
    }

    /** A name no other test uses, valid as a username or an organization's name. */
    public static String uniqueName(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public static Person signUp(String prefix) {
        String username = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        String password = "correct horse " + UUID.randomUUID();
        int id = anonymous().contentType("application/json")
                .body(Map.of("username", username, "password", password, "email", username + "@example.org",
                        "display_name", prefix))
                .post("/people").then().statusCode(201).extract().path("id");
        return new Person(id, username, password);
    }

    /** The password grant, as a public client (no client authentication), through the OAuth library. */
    public static AccessTokenResponse passwordToken(Person who, String... scopes) {
        try {
            TokenRequest request = new TokenRequest(metadata().getTokenEndpointURI(),
                    new ResourceOwnerPasswordCredentialsGrant(who.username(), new Secret(who.password())), new Scope(scopes));
            TokenResponse response = TokenResponse.parse(request.toHTTPRequest().send());
            assertTrue(response.indicatesSuccess(), () -> "password grant refused: "
                    + response.toErrorResponse().getErrorObject().toJSONObject());
            return response.toSuccessResponse();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * An access token of the application's by the authorization endpoint's API form (spec 4.2): the
     * person's own token stands for consent, and the code is exchanged with the client's secret.
     */
    public static String tokenByApiForm(String token, Person who, String clientId, String secret, String redirect,
            String scope) {
        return exchangeCode(clientId, secret, redirect, codeByApi(token, who, clientId, secret, redirect, scope));
    }

    private static String codeByApi(String token, Person who, String clientId, String secret, String redirect, String scope) {
        String location = as(token).redirects().follow(false).formParams(Map.of("response_type", "code",
                        "client_id", clientId, "client_secret", secret, "redirect_uri", redirect,
                        "username", who.username(), "scope", scope))
                .post("/oauth/authorize").then().statusCode(302).extract().header("Location");
        java.util.regex.Matcher code = java.util.regex.Pattern.compile("[?&]code=([^&]+)").matcher(location);
        assertTrue(code.find(), location);
        return code.group(1);
    }

    private static String exchangeCode(String clientId, String secret, String redirect, String code) {
        return anonymous().accept("application/json").formParams(Map.of("grant_type", "authorization_code", "code", code,
                        "redirect_uri", redirect, "client_id", clientId, "client_secret", secret))
                .post("/oauth/token").then().statusCode(200).extract().path("access_token");
    }

    /** The id of the person's grant to the application {@code clientId}, as their grants list it. */
    public static long grantOf(String token, String clientId) {
        java.util.List<Map<String, Object>> grants = as(token).get("/applications/grants").then().statusCode(200).extract()
                .jsonPath().getList("$");
        return grants.stream().filter(g -> clientId.equals(((Map<?, ?>) g.get("app")).get("client_id")))
                .map(g -> ((Number) g.get("id")).longValue()).findFirst()
                .orElseThrow(() -> new IllegalStateException("no grant for " + clientId + " in " + grants));
    }

    public static String accessToken(Person who, String... scopes) {
        return passwordToken(who, scopes).getTokens().getAccessToken().getValue();
    }
}
