package org.ziggurat.e2e;

import com.nimbusds.oauth2.sdk.AccessTokenResponse;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.AuthorizationRequest;
import com.nimbusds.oauth2.sdk.AuthorizationResponse;
import com.nimbusds.oauth2.sdk.RefreshTokenGrant;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenErrorResponse;
import com.nimbusds.oauth2.sdk.TokenIntrospectionRequest;
import com.nimbusds.oauth2.sdk.TokenIntrospectionResponse;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.TokenRevocationRequest;
import com.nimbusds.oauth2.sdk.as.AuthorizationServerMetadata;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.token.BearerAccessToken;
import com.nimbusds.oauth2.sdk.token.RefreshToken;
import org.junit.jupiter.api.Test;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.e2e.Platform.anonymous;
import static org.ziggurat.e2e.Platform.as;

/**
 * Sign-up → password token → an application → authorization code with PKCE (through the login
 * and consent pages, over plain HTTP) → token info → refresh → revoke, with the Nimbus OAuth 2.0
 * SDK as the client, configured from the server's metadata alone.
 */
class OAuthJourneyTest {

    record App(ClientID id, Secret secret, URI redirect) {
    }

    static App application(String ownerToken, String redirect) {
        Map<String, Object> app = as(ownerToken).contentType("application/json")
                .body(Map.of("name", "Field notebook", "redirect_uris", List.of(redirect), "scopes", "user write"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getMap("");
        return new App(new ClientID((String) app.get("client_id")), new Secret((String) app.get("client_secret")),
                URI.create(redirect));
    }

    @Test
    void theMetadataIsEnoughForAStandardClient() {
        AuthorizationServerMetadata metadata = Platform.metadata();
        assertEquals(Platform.api(), metadata.getIssuer().getValue());
        assertEquals(URI.create(Platform.api() + "/oauth/token"), metadata.getTokenEndpointURI());
        assertEquals(URI.create(Platform.api() + "/oauth/authorize"), metadata.getAuthorizationEndpointURI());
        assertEquals(URI.create(Platform.api() + "/oauth/revoke"), metadata.getRevocationEndpointURI());
        assertEquals(URI.create(Platform.api() + "/oauth/introspect"), metadata.getIntrospectionEndpointURI());
        assertTrue(metadata.getCodeChallengeMethods().contains(CodeChallengeMethod.S256));
        assertTrue(metadata.getScopes().contains("user"));
    }

    @Test
    void signUpToRevocation() throws Exception {
        Platform.Person ada = Platform.signUp("ada");
        String adminToken = Platform.accessToken(ada, "user", "admin");
        as(adminToken).get("/user").then().statusCode(200).body("username", equalTo(ada.username()));

        App app = application(adminToken, "http://127.0.0.1:9/callback");
        CodeVerifier verifier = new CodeVerifier();
        State state = new State();
        AuthorizationRequest request = new AuthorizationRequest.Builder(new ResponseType(ResponseType.Value.CODE), app.id())
                .endpointURI(Platform.metadata().getAuthorizationEndpointURI()).redirectionURI(app.redirect())
                .scope(new Scope("user", "write")).state(state).codeChallenge(verifier, CodeChallengeMethod.S256).build();
        URI callback = new BrowserlessUser(ada).authorize(request.toURI());
        AuthorizationResponse answer = AuthorizationResponse.parse(callback);
        assertTrue(answer.indicatesSuccess(), callback.toString());
        assertEquals(state, answer.getState());
        AuthorizationCode code = answer.toSuccessResponse().getAuthorizationCode();

        // Without the verifier the code is refused; with it, exchanged once.
        TokenResponse noVerifier = exchange(app, new AuthorizationCodeGrant(code, app.redirect()));
        assertFalse(noVerifier.indicatesSuccess());
        AccessTokenResponse tokens = exchange(app, new AuthorizationCodeGrant(code, app.redirect(), verifier))
                .toSuccessResponse();
        BearerAccessToken access = tokens.getTokens().getBearerAccessToken();
        RefreshToken refresh = tokens.getTokens().getRefreshToken();
        assertEquals(new Scope("user", "write"), access.getScope());

        as(access.getValue()).get("/oauth/token/info").then().statusCode(200)
                .body("application.uid", equalTo(app.id().getValue()))
                .body("resource_owner_id", equalTo((int) ada.id()));
        as(access.getValue()).get("/user").then().statusCode(200).body("username", equalTo(ada.username()));

        AccessTokenResponse refreshed = exchange(app, new RefreshTokenGrant(refresh)).toSuccessResponse();
        String renewed = refreshed.getTokens().getAccessToken().getValue();
        assertNotEquals(access.getValue(), renewed);
        as(renewed).get("/user").then().statusCode(200);
        // The old refresh token was rotated away.
        TokenResponse reused = exchange(app, new RefreshTokenGrant(refresh));
        assertEquals("invalid_grant", ((TokenErrorResponse) reused).getErrorObject().getCode());

        TokenRevocationRequest revoke = new TokenRevocationRequest(Platform.metadata().getRevocationEndpointURI(),
                new ClientSecretBasic(app.id(), app.secret()), new BearerAccessToken(renewed));
        assertEquals(200, revoke.toHTTPRequest().send().getStatusCode());
        TokenIntrospectionResponse introspection = TokenIntrospectionResponse.parse(new TokenIntrospectionRequest(
                Platform.metadata().getIntrospectionEndpointURI(), new ClientSecretBasic(app.id(), app.secret()),
                new BearerAccessToken(renewed)).toHTTPRequest().send());
        assertFalse(introspection.toSuccessResponse().isActive());
        // The gateway may have the token cached as valid for its cache's lifetime (2 s here); then it is refused.
        long deadline = System.currentTimeMillis() + 10_000;
        int status;
        do {
            status = as(renewed).get("/user").then().extract().statusCode();
            if (status != 401) {
                Thread.sleep(500);
            }
        } while (status != 401 && System.currentTimeMillis() < deadline);
        assertEquals(401, status, "a revoked token still works through the gateway");
    }

    /**
     * The spec's API form of POST /oauth/authorize, with the person's own token: the answer goes
     * to the application's registered redirect URI with code and state (RFC 6749 §4.1.2), which a
     * standard client library parses; the code carries no more than the token did.
     */
    @Test
    void theApiFormAnswersAtTheRegisteredRedirectUri() throws Exception {
        Platform.Person ada = Platform.signUp("api-form");
        String own = Platform.accessToken(ada, "user", "admin");
        App app = application(own, "http://127.0.0.1:9/callback");
        State state = new State();
        var answer = as(own).redirects().follow(false).contentType("application/x-www-form-urlencoded")
                .formParams(Map.of("response_type", "code", "client_id", app.id().getValue(), "client_secret",
                        app.secret().getValue(), "redirect_uri", app.redirect().toString(), "username", ada.username(),
                        "scope", "user", "state", state.getValue()))
                .post("/oauth/authorize");
        answer.then().statusCode(302);
        AuthorizationResponse parsed = AuthorizationResponse.parse(URI.create(answer.getHeader("Location")));
        assertTrue(parsed.indicatesSuccess(), answer.getHeader("Location"));
        assertEquals(app.redirect(), parsed.getRedirectionURI());
        assertEquals(state, parsed.getState());
        AccessTokenResponse tokens = exchange(app, new AuthorizationCodeGrant(parsed.toSuccessResponse().getAuthorizationCode(),
                app.redirect())).toSuccessResponse();
        assertEquals(new Scope("user"), tokens.getTokens().getAccessToken().getScope());
        // A scope the presenting token does not carry: refused, no code.
        as(own).redirects().follow(false).contentType("application/x-www-form-urlencoded")
                .formParams(Map.of("response_type", "code", "client_id", app.id().getValue(), "client_secret",
                        app.secret().getValue(), "redirect_uri", app.redirect().toString(), "username", ada.username(),
                        "scope", "user write"))
                .post("/oauth/authorize").then().statusCode(403).body("error", equalTo("insufficient_scope"));
    }

    /** Only access tokens authorize API calls: a refresh token, in any style, is refused at the gateway. */
    @Test
    void aRefreshTokenIsNoAccessToken() {
        Platform.Person ada = Platform.signUp("refresh");
        AccessTokenResponse tokens = Platform.passwordToken(ada, "user");
        String refresh = tokens.getTokens().getRefreshToken().getValue();
        as(refresh).get("/user").then().statusCode(401);
        anonymous().header("Authorization", "token " + refresh).get("/user").then().statusCode(401);
        anonymous().queryParam("access_token", refresh).get("/user").then().statusCode(401);
        as(tokens.getTokens().getAccessToken().getValue()).get("/user").then().statusCode(200);
    }

    static TokenResponse exchange(App app, com.nimbusds.oauth2.sdk.AuthorizationGrant grant) throws Exception {
        var request = new TokenRequest(Platform.metadata().getTokenEndpointURI(),
                new ClientSecretBasic(app.id(), app.secret()), grant).toHTTPRequest();
        // The platform's contract (spec 4.2) answers the code exchange form-encoded unless the client
        // asks for JSON; RFC 6749 clients ask.
        request.setAccept("application/json");
        var http = request.send();
        try {
            return TokenResponse.parse(http);
        } catch (com.nimbusds.oauth2.sdk.ParseException e) {
            throw new AssertionError("not an OAuth token response: " + http.getStatusCode() + " "
                    + http.getHeaderMap() + " " + http.getBody(), e);
        }
    }

    /**
     * A person going through the login and consent pages with plain HTTP, as a browser would,
     * without one; with an authenticator app's key when they have a second factor.
     */
    static final class BrowserlessUser {
        private final Platform.Person person;
        private final byte[] authenticatorKey;
        private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NEVER).build();

        BrowserlessUser(Platform.Person person) {
            this(person, null);
        }

        /** {@code authenticatorKey}: the TOTP key the person set up, whose next code the sign-in takes. */
        BrowserlessUser(Platform.Person person, byte[] authenticatorKey) {
            this.person = person;
            this.authenticatorKey = authenticatorKey;
        }

        /** Follows the pages to the redirect back to the client, and returns that redirect. */
        URI authorize(URI start) throws Exception {
            return signInAndApprove(get(start));
        }

        /** The same, for the authorization request posted as a form (OpenID Connect Core §3.1.2.1). */
        URI authorizeByPost(String form) throws Exception {
            return signInAndApprove(http.send(HttpRequest.newBuilder(URI.create(Platform.api() + "/oauth/authorize"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString()));
        }

        private URI signInAndApprove(HttpResponse<String> page) throws Exception {
            assertEquals(200, page.statusCode(), page.body());
            Map<String, String> login = hiddenInputs(page.body());
            login.put("login", person.username());
            login.put("password", person.password());
            HttpResponse<String> afterLogin = post(login);
            if (authenticatorKey != null) {
                assertEquals(200, afterLogin.statusCode(), "the second factor's form: " + afterLogin.body());
                Map<String, String> second = hiddenInputs(afterLogin.body());
                // The next step's code: the current one may have been used (at enrolment), and is then refused.
                second.put("code", AccountSecurityForms.code(authenticatorKey, AccountSecurityForms.step() + 1));
                afterLogin = post(second);
            }
            assertEquals(303, afterLogin.statusCode(), afterLogin.body());
            HttpResponse<String> consent = get(URI.create(Platform.api()).resolve(afterLogin.headers().firstValue("Location")
                    .orElseThrow()));
            assertEquals(200, consent.statusCode(), consent.body());
            Map<String, String> decision = hiddenInputs(consent.body());
            decision.put("action", "approve");
            HttpResponse<String> approved = post(decision);
            assertEquals(303, approved.statusCode(), approved.body());
            return URI.create(approved.headers().firstValue("Location").orElseThrow());
        }

        private HttpResponse<String> get(URI uri) throws Exception {
            return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        }

        private HttpResponse<String> post(Map<String, String> form) throws Exception {
            String body = form.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                    + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
            return http.send(HttpRequest.newBuilder(URI.create(Platform.api() + "/oauth/authorize"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        }

        static Map<String, String> hiddenInputs(String html) {
            Map<String, String> fields = new LinkedHashMap<>();
            Matcher m = Pattern.compile("<input type=\"hidden\" name=\"([^\"]+)\" value=\"([^\"]*)\">").matcher(html);
            while (m.find()) {
                fields.put(m.group(1), m.group(2).replace("&quot;", "\"").replace("&#39;", "'").replace("&lt;", "<")
                        .replace("&gt;", ">").replace("&amp;", "&"));
            }
            return fields;
        }
    }
}
