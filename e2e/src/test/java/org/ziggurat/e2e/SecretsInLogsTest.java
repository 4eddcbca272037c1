package org.ziggurat.e2e;

import com.nimbusds.oauth2.sdk.AccessTokenResponse;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.AuthorizationRequest;
import com.nimbusds.oauth2.sdk.AuthorizationResponse;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.RefreshTokenGrant;
import com.nimbusds.oauth2.sdk.TokenRevocationRequest;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.token.BearerAccessToken;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.e2e.Platform.anonymous;
import static org.ziggurat.e2e.Platform.as;

/**
 * A journey that handles every kind of secret (passwords, right and wrong; access and refresh
 * tokens; a client secret; an authorization code), then every line every service logged, at
 * DEBUG for the platform's own code and the token libraries: none of those values appears.
 */
class SecretsInLogsTest {

    static final Pattern TOKEN_SHAPED = Pattern.compile("\\b(zat|zrt|zac|zcs|zls)_[A-Za-z0-9_-]{20,}");

    @Test
    void noSecretIsEverLogged() throws Exception {
        List<String> secrets = new ArrayList<>();
        Platform.Person ada = Platform.signUp("logged");
        secrets.add(ada.password());
        AccessTokenResponse password = Platform.passwordToken(ada, "user", "admin", "write");
        String access = password.getTokens().getAccessToken().getValue();
        secrets.add(access);
        if (password.getTokens().getRefreshToken() != null) {
            secrets.add(password.getTokens().getRefreshToken().getValue());
        }
        as(access).get("/user").then().statusCode(200);
        // A wrong password, and a password sent where a username belongs.
        String wrong = "wrong horse battery " + System.nanoTime();
        secrets.add(wrong);
        anonymous().formParams(Map.of("grant_type", "password", "username", ada.username(), "password", wrong))
                .post("/oauth/token").then().statusCode(400);
        anonymous().formParams(Map.of("grant_type", "password", "username", ada.password(), "password", ada.password()))
                .post("/oauth/token").then().statusCode(400);

        OAuthJourneyTest.App app = OAuthJourneyTest.application(access, "http://127.0.0.1:9/callback");
        secrets.add(app.secret().getValue());
        CodeVerifier verifier = new CodeVerifier();
        secrets.add(verifier.getValue());
        URI callback = new OAuthJourneyTest.BrowserlessUser(ada).authorize(new AuthorizationRequest.Builder(
                new ResponseType(ResponseType.Value.CODE), app.id()).endpointURI(Platform.metadata().getAuthorizationEndpointURI())
                .redirectionURI(app.redirect()).scope(new Scope("user")).codeChallenge(verifier, CodeChallengeMethod.S256)
                .build().toURI());
        AuthorizationCode code = AuthorizationResponse.parse(callback).toSuccessResponse().getAuthorizationCode();
        secrets.add(code.getValue());
        AccessTokenResponse issued = OAuthJourneyTest.exchange(app, new AuthorizationCodeGrant(code, app.redirect(), verifier))
                .toSuccessResponse();
        secrets.add(issued.getTokens().getAccessToken().getValue());
        secrets.add(issued.getTokens().getRefreshToken().getValue());
        // A refresh, the old refresh token again (refused), and the code again (refused; it revokes
        // what was issued from it, as RFC 6749 asks).
        AccessTokenResponse refreshed = OAuthJourneyTest.exchange(app,
                new RefreshTokenGrant(issued.getTokens().getRefreshToken())).toSuccessResponse();
        secrets.add(refreshed.getTokens().getAccessToken().getValue());
        secrets.add(refreshed.getTokens().getRefreshToken().getValue());
        assertTrue(!OAuthJourneyTest.exchange(app, new RefreshTokenGrant(issued.getTokens().getRefreshToken()))
                .indicatesSuccess(), "a rotated refresh token was accepted again");
        assertTrue(!OAuthJourneyTest.exchange(app, new AuthorizationCodeGrant(code, app.redirect(), verifier))
                .indicatesSuccess(), "a used code was accepted again");
        assertTrue(new TokenRevocationRequest(Platform.metadata().getRevocationEndpointURI(),
                new ClientSecretBasic(app.id(), app.secret()),
                new BearerAccessToken(refreshed.getTokens().getAccessToken().getValue())).toHTTPRequest().send()
                .indicatesSuccess(), "the revocation was refused");
        // A token in the query string (the spec's second way to send one, spec 5.3), and a forged one in a header.
        anonymous().queryParam("access_token", access).get("/user").then().statusCode(200);
        // A JWT access token (RFC 9068), which has no prefix to be known by: the whole and its signature.
        Map<String, Object> jwtApp = as(access).contentType("application/json").body(Map.of("name", "Logged JWT client",
                        "redirect_uris", List.of("http://127.0.0.1:9/callback"), "scopes", "user", "password_grant", true,
                        "access_token_format", "jwt"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getMap("");
        secrets.add((String) jwtApp.get("client_secret"));
        Map<String, Object> jwtTokens = Platform.offContract().auth().preemptive()
                .basic((String) jwtApp.get("client_id"), (String) jwtApp.get("client_secret"))
                .formParams(Map.of("grant_type", "password", "username", ada.username(), "password", ada.password(),
                        "scope", "user"))
                .post("/oauth/token").then().statusCode(200).extract().jsonPath().getMap("");
        String jwt = (String) jwtTokens.get("access_token");
        secrets.add(jwt);
        secrets.add(jwt.substring(jwt.lastIndexOf('.') + 1));
        secrets.add((String) jwtTokens.get("refresh_token"));
        as(jwt).get("/user").then().statusCode(200);
        String forged = "zat_" + "A".repeat(43);
        secrets.add(forged);
        as(forged).get("/user").then().statusCode(401);
        // The out-of-band page's path carries a code (the gateway's access log saw it whole), also
        // percent-encoded, which the page decodes to the same code.
        anonymous().urlEncodingEnabled(false).get("/oauth/authorize/" + code.getValue());
        anonymous().urlEncodingEnabled(false).get("/oauth/authorize/" + code.getValue().replace("_", "%5F"));
        // A last request to each gateway instance, whose access-log line shows that everything
        // that instance was sent before it has been written.
        for (String gateway : Stack.instancesOf("gateway")) {
            String marker = "/people/log-marker-" + java.util.UUID.randomUUID().toString().substring(0, 8);
            io.restassured.RestAssured.given().baseUri(Stack.get().instanceUrl(gateway) + "/api").get(marker).then()
                    .statusCode(404);
            Path gatewayLog = Stack.get().logsDirectory().resolve(gateway + ".log");
            long deadline = System.currentTimeMillis() + 10_000;
            while (!Files.readString(gatewayLog).contains(marker) && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(Files.readString(gatewayLog).contains(marker), gateway + "'s access log never showed the marker request");
        }

        List<String> found = new ArrayList<>();
        try (Stream<Path> logs = Files.list(Stack.get().logsDirectory())) {
            for (Path log : logs.toList()) {
                List<String> lines = Files.readAllLines(log);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i);
                    for (String secret : secrets) {
                        if (line.contains(secret)) {
                            found.add(log.getFileName() + ":" + (i + 1) + " holds a secret: " + line);
                        }
                    }
                    if (TOKEN_SHAPED.matcher(line).find()) {
                        found.add(log.getFileName() + ":" + (i + 1) + " holds something token-shaped: " + line);
                    }
                }
            }
        }
        assertTrue(found.isEmpty(), String.join("\n", found));
    }
}
