package org.ziggurat.e2e;

import org.junit.jupiter.api.Test;

import org.awaitility.Awaitility;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ziggurat.e2e.Platform.as;

/**
 * An organization that requires a second factor, across the services: its member without one
 * keeps the membership but is refused, with a problem that says why, in the organization's
 * vocabularies (vocab-service) and data events (events-service); after setting one up, a token
 * from a sign-in without it is refused with RFC 9470's {@code insufficient_user_authentication},
 * and one from a sign-in with it (the authorization code flow, asking for it with acr_values) is
 * let in.
 */
class OrganizationSecondFactorTest {

    /** Well past how long a replica keeps a namespace's rights (NamespaceDirectory's cache-ttl, 5 s). */
    static final Duration RIGHTS_CACHE = Duration.ofSeconds(15);
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final List<String> REPLICAS = List.of("vocab-service", "vocab-service-2", "events-service", "events-service-2");

    /**
     * Waits until every replica of vocab- and events-service, asked directly as the person (the
     * platform token the gateway would forward), answers the reads of {@code paths} with
     * {@code status}: the rights each replica keeps have caught up.
     */
    static void everyReplicaAnswers(Platform.Person person, List<String> paths, int status) throws Exception {
        everyReplicaAnswers(org.ziggurat.platform.testing.TestTokens.userSignedWith(Stack.get().keysDirectory(), person.id(),
                person.username(), "user", "write"), paths, status);
    }

    /** The same, with this platform token (one that says the person signed in with a second factor, say). */
    static void everyReplicaAnswers(String token, List<String> paths, int status) throws Exception {
        Awaitility.await().atMost(RIGHTS_CACHE).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            for (String replica : REPLICAS) {
                String path = paths.get(replica.startsWith("vocab") ? 0 : 1);
                HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(Stack.get().instanceUrl(replica) + path))
                        .header("X-Platform-Token", token).GET().build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(status, answer.statusCode(), replica + " " + path + ": " + answer.body());
            }
        });
    }

    @Test
    void aMemberWithoutASecondFactorIsRefusedUntilTheySetOneUp() throws Exception {
        Platform.Person admin = Platform.signUp("strict-admin");
        Platform.Person member = Platform.signUp("strict-member");
        // Tokens first: a person with a second factor no longer gets one with the password grant.
        String adminToken = Platform.accessToken(admin, "user", "admin", "write", "update");
        String memberToken = Platform.accessToken(member, "user", "admin", "write", "update");
        Map<String, Object> created = as(adminToken).contentType("application/json")
                .body(Map.of("name", "strict-" + java.util.UUID.randomUUID().toString().substring(0, 8), "visibility", "private"))
                .post("/organizations").then().statusCode(201).extract().jsonPath().getMap("");
        String name = (String) created.get("name");
        int id = (Integer) created.get("id");
        as(adminToken).contentType("application/json").body(Map.of("role", "member"))
                .put("/organizations/" + id + "/memberships/" + member.id()).then().statusCode(201);
        as(memberToken).contentType("application/json").body(Map.of("state", "active"))
                .patch("/user/memberships/organizations/" + id).then().statusCode(200);
        String vocab = "/" + name + "/vocab/schemes";
        String events = "/" + name + "/repositories/notebook/data/events";
        as(memberToken).contentType("application/json").body(Map.of("note", "before the rule")).post(events)
                .then().statusCode(201);

        byte[] adminKey = AccountSecurityForms.enrolAuthenticator(admin);
        // Requiring it takes a sign-in with one's own: the token from before is asked to sign in with it.
        stepUpAsked(as(adminToken).contentType("application/json").body(Map.of("two_factor_requirement_enabled", true))
                .patch("/organizations/" + id).then());
        String adminWithIt = signedInWithSecondFactor(admin, adminKey, adminToken, "user", "write", "admin");
        as(adminWithIt).contentType("application/json").body(Map.of("two_factor_requirement_enabled", true))
                .patch("/organizations/" + id).then().statusCode(200).body("two_factor_requirement_enabled", equalTo(true));

        // Every replica keeps a namespace's rights for a while: wait until each one, asked directly, refuses.
        everyReplicaAnswers(member, List.of(vocab, events), 403);
        as(memberToken).get(vocab).then().statusCode(403)
                .body("title", equalTo("Second Factor Required")).body("detail", containsString("/account/security"));
        as(memberToken).get(events).then().statusCode(403).body("title", equalTo("Second Factor Required"));
        as(memberToken).contentType("application/json").body(Map.of("note", "refused")).post(events).then().statusCode(403)
                .body("title", equalTo("Second Factor Required"));
        // The admin, who has one, goes on after signing in with it; the member is still a member.
        stepUpAsked(as(adminToken).get(vocab).then());
        as(adminWithIt).get(vocab).then().statusCode(200);
        as(adminToken).get("/organizations/" + id + "/members").then().statusCode(200)
                .body("id", org.hamcrest.Matchers.hasItem((int) member.id()));

        byte[] memberKey = AccountSecurityForms.enrolAuthenticator(member);
        // Set up, but the token is from a sign-in without it: RFC 9470's step-up, on every replica.
        everyReplicaAnswers(member, List.of(vocab, events), 401);
        stepUpAsked(as(memberToken).get(vocab).then());
        stepUpAsked(as(memberToken).contentType("application/json").body(Map.of("note", "refused")).post(events).then());
        everyReplicaAnswers(org.ziggurat.platform.testing.TestTokens.userWithSecondFactorSignedWith(Stack.get().keysDirectory(),
                member.id(), member.username(), "user", "write"), List.of(vocab, events), 200);
        String stronger = signedInWithSecondFactor(member, memberKey, memberToken);
        as(stronger).get(vocab).then().statusCode(200);
        as(stronger).get(events).then().statusCode(200);
        as(stronger).contentType("application/json").body(Map.of("note", "after setting one up")).post(events)
                .then().statusCode(201);
    }

    /**
     * The review's finding: the requirement held for the organization's data, not for its own
     * administration. An admin without a second factor switched it off with a single-factor token,
     * then read the data. Now the organization, its memberships, its applications and its webhooks
     * answer them as its data does, and only a sign-in with a second factor changes the requirement.
     */
    @Test
    void anAdminWithoutASecondFactorNeitherSwitchesTheRequirementOffNorAdministers() throws Exception {
        Platform.Person strict = Platform.signUp("strict-owner");
        Platform.Person lax = Platform.signUp("lax-admin");
        Platform.Person member = Platform.signUp("lax-member");
        String strictToken = Platform.accessToken(strict, "user", "admin", "write", "update");
        String laxToken = Platform.accessToken(lax, "user", "admin", "write", "update");
        String memberToken = Platform.accessToken(member, "user", "admin", "write", "update");
        Map<String, Object> created = as(strictToken).contentType("application/json")
                .body(Map.of("name", "lax-" + java.util.UUID.randomUUID().toString().substring(0, 8), "visibility", "private"))
                .post("/organizations").then().statusCode(201).extract().jsonPath().getMap("");
        String name = (String) created.get("name");
        String path = "/organizations/" + created.get("id");
        for (var who : List.of(Map.entry(lax, laxToken), Map.entry(member, memberToken))) {
            as(strictToken).contentType("application/json").body(Map.of("role", who.getKey() == lax ? "admin" : "member"))
                    .put(path + "/memberships/" + who.getKey().id()).then().statusCode(201);
            as(who.getValue()).contentType("application/json").body(Map.of("state", "active"))
                    .patch("/user/memberships/organizations/" + created.get("id")).then().statusCode(200);
        }
        Object laxApp = as(laxToken).contentType("application/json").body(Map.of("name", "Lax tool",
                        "redirect_uris", List.of("http://127.0.0.1:9/callback"), "scopes", "public"))
                .post("/applications").then().statusCode(201).extract().path("id");
        byte[] key = AccountSecurityForms.enrolAuthenticator(strict);
        String strictWithIt = signedInWithSecondFactor(strict, key, strictToken, "user", "write", "admin");
        as(strictWithIt).contentType("application/json").body(Map.of("two_factor_requirement_enabled", true))
                .patch(path).then().statusCode(200);

        // lax, an admin without a second factor: the bypass, then everything else its admins do.
        secondFactorRequired(as(laxToken).contentType("application/json").body(Map.of("two_factor_requirement_enabled", false))
                .patch(path).then());
        secondFactorRequired(as(laxToken).contentType("application/json").body(Map.of("visibility", "public")).patch(path).then());
        secondFactorRequired(as(laxToken).delete(path).then());
        secondFactorRequired(as(laxToken).contentType("application/json").body(Map.of("role", "admin"))
                .put(path + "/memberships/" + member.id()).then());
        secondFactorRequired(as(laxToken).delete(path + "/memberships/" + member.id()).then());
        secondFactorRequired(as(laxToken).contentType("application/json").body(Map.of("read", true, "update", true))
                .put("/applications/" + laxApp + "/accessors/organizations/" + created.get("id")).then());
        // events-service's replicas keep a namespace's rights for a while.
        Awaitility.await().atMost(RIGHTS_CACHE).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                secondFactorRequired(as(laxToken).contentType("application/json")
                        .body(Map.of("url", "http://127.0.0.1:9/lax", "active", false)).post("/" + name + "/webhooks").then()));
        secondFactorRequired(as(laxToken).get("/" + name + "/vocab/schemes").then());
        // strict, who has one, with a token from a sign-in without it, is asked to sign in with it.
        stepUpAsked(as(strictToken).contentType("application/json").body(Map.of("two_factor_requirement_enabled", false))
                .patch(path).then());
        stepUpAsked(as(strictToken).delete(path + "/memberships/" + member.id()).then());
        as(strictWithIt).get(path).then().statusCode(200).body("two_factor_requirement_enabled", equalTo(true))
                .body("visibility", equalTo("private"));
        as(strictWithIt).get(path + "/members").then().statusCode(200).body("id", org.hamcrest.Matchers.hasItems(
                (int) lax.id(), (int) member.id()));
        as(strictWithIt).contentType("application/json").body(Map.of("two_factor_requirement_enabled", false))
                .patch(path).then().statusCode(200).body("two_factor_requirement_enabled", equalTo(false));
    }

    /** The organization's answer to someone without the second factor it requires: 403, set one up. */
    static void secondFactorRequired(io.restassured.response.ValidatableResponse answer) {
        answer.statusCode(403).body("title", equalTo("Second Factor Required")).body("detail", containsString("/account/security"));
    }

    /** A 401 whose Bearer challenge asks for a sign-in with a second factor (RFC 9470 §3). */
    static void stepUpAsked(io.restassured.response.ValidatableResponse answer) {
        answer.statusCode(401).body("title", equalTo("Insufficient User Authentication"))
                .header("WWW-Authenticate", org.hamcrest.Matchers.allOf(
                        containsString("error=\"insufficient_user_authentication\""),
                        containsString("acr_values=\"https://refeds.org/profile/mfa\"")));
    }

    /**
     * What an application does on that 401: it sends the person through the authorization code
     * flow with {@code acr_values} (their password, then their authenticator app's code) and
     * calls with the new access token. {@code ownerToken}: theirs, to register the application.
     */
    static String signedInWithSecondFactor(Platform.Person person, byte[] key, String ownerToken) throws Exception {
        return signedInWithSecondFactor(person, key, ownerToken, "user", "write");
    }

    /** The same, for a token with these scopes (an application of the person's that may ask for them). */
    static String signedInWithSecondFactor(Platform.Person person, byte[] key, String ownerToken, String... scopes)
            throws Exception {
        Map<String, Object> registered = as(ownerToken).contentType("application/json").body(Map.of("name", "Field notebook",
                        "redirect_uris", List.of("http://127.0.0.1:9/callback"), "scopes", String.join(" ", scopes)))
                .post("/applications").then().statusCode(201).extract().jsonPath().getMap("");
        OAuthJourneyTest.App app = new OAuthJourneyTest.App(new com.nimbusds.oauth2.sdk.id.ClientID((String) registered.get("client_id")),
                new com.nimbusds.oauth2.sdk.auth.Secret((String) registered.get("client_secret")),
                URI.create("http://127.0.0.1:9/callback"));
        var verifier = new com.nimbusds.oauth2.sdk.pkce.CodeVerifier();
        var request = new com.nimbusds.oauth2.sdk.AuthorizationRequest.Builder(
                new com.nimbusds.oauth2.sdk.ResponseType(com.nimbusds.oauth2.sdk.ResponseType.Value.CODE), app.id())
                .endpointURI(Platform.metadata().getAuthorizationEndpointURI()).redirectionURI(app.redirect())
                .scope(new com.nimbusds.oauth2.sdk.Scope(scopes))
                .state(new com.nimbusds.oauth2.sdk.id.State())
                .codeChallenge(verifier, com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod.S256)
                .customParameter("acr_values", "https://refeds.org/profile/mfa").build();
        URI callback = new OAuthJourneyTest.BrowserlessUser(person, key).authorize(request.toURI());
        var code = com.nimbusds.oauth2.sdk.AuthorizationResponse.parse(callback).toSuccessResponse().getAuthorizationCode();
        var tokens = OAuthJourneyTest.exchange(app, new com.nimbusds.oauth2.sdk.AuthorizationCodeGrant(code, app.redirect(),
                verifier)).toSuccessResponse();
        return tokens.getTokens().getAccessToken().getValue();
    }
}
