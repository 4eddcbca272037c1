package org.ziggurat.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Test doubles of the providers people sign in with, on one local port: two OpenID Connect
 * providers ("realms" {@code a} and {@code b}, as two Keycloak realms would be; and {@code orcid},
 * whose subjects are ORCID iDs) and a GitHub (its OAuth 2.0 endpoints and user API). No stricter
 * and no laxer than the real ones in what these tests use: the client's secret, the redirect URI,
 * PKCE (S256) and a code good once are checked; ID tokens are signed RS256 with the realm's key,
 * published at its jwks_uri; answers carry RFC 9207's iss (announced in the metadata).
 *
 * Who signs in is the {@code user} parameter the test adds to the authorization URL, as a person
 * would pick an account: the subject. A subject that begins with "unverified-" has an address the
 * provider did not verify; "mfa-" signed in with a second factor there (amr otp, mfa). {@code
 * tamper=nonce} makes the ID token carry another nonce; {@code tamper=aud}, a second audience and no
 * azp; {@code tamper=azp}, another client's azp. A subject "as-NAME" has the address NAME@example.org,
 * verified (the directory double's people have those addresses). Every realm asserts the REFEDS
 * values below and {@link #OTHER_AUTHORITY}'s, which no operator here allows. The realm
 * {@code moved} publishes its keys behind a redirect (its jwks_uri answers 302 to them).
 */
public class UpstreamDouble implements QuarkusTestResourceLifecycleManager {

    public static final String CLIENT_ID = "ziggurat-test";
    public static final String CLIENT_SECRET = "upstream client secret";
    public static final String RAF_MEDIUM = "https://refeds.org/assurance/IAP/medium";
    /** An assurance value of another authority, which a realm asserts and no provider here is allowed to. */
    public static final String OTHER_AUTHORITY = "https://other-authority.example/LoA#high";

    private record Grant(String realm, String clientId, String redirectUri, String nonce, String challenge, String user,
            String tamper) {
    }

    private final Map<String, Grant> codes = new ConcurrentHashMap<>();
    private final Map<String, Grant> accessTokens = new ConcurrentHashMap<>();
    private final Map<String, RSAKey> keys = new HashMap<>();
    private Vertx vertx;
    private String base;

    @Override
    public Map<String, String> start() {
        try {
            for (String realm : List.of("a", "b", "orcid", "moved")) {
                keys.put(realm, new RSAKeyGenerator(2048).keyID("key-" + realm).generate());
            }
            vertx = Vertx.vertx();
            int port = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
                try {
                    handle(request, body.toString());
                } catch (Exception e) {
                    request.response().setStatusCode(500).end(String.valueOf(e));
                }
            })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
            base = "http://127.0.0.1:" + port;
            Map<String, String> config = new HashMap<>();
            String p = "ziggurat.auth.federation.providers.";
            // The doubles listen on loopback over plain http: the operator allows exactly that address.
            config.put("ziggurat.auth.federation.allowed-networks", "127.0.0.1/32");
            config.put(p + "institution.issuer", base + "/a");
            config.put(p + "institution.assurance", "https://refeds.org/assurance," + RAF_MEDIUM);
            config.put(p + "institution.display-name", "your institution");
            config.put(p + "institution.client-id", CLIENT_ID);
            config.put(p + "institution.client-secret", CLIENT_SECRET);
            config.put(p + "institution.orcid-claim", "orcid");
            // The same realm as a provider that makes no new accounts (it only links).
            config.put(p + "partner.issuer", base + "/b");
            config.put(p + "partner.display-name", "Partner");
            config.put(p + "partner.client-id", CLIENT_ID);
            config.put(p + "partner.client-secret", CLIENT_SECRET);
            config.put(p + "partner.client-auth", "post");
            config.put(p + "partner.new-accounts", "false");
            config.put(p + "orcid.kind", "orcid");
            config.put(p + "orcid.issuer", base + "/orcid");
            config.put(p + "orcid.client-id", CLIENT_ID);
            config.put(p + "orcid.client-secret", CLIENT_SECRET);
            config.put(p + "github.kind", "github");
            config.put(p + "github.client-id", CLIENT_ID);
            config.put(p + "github.client-secret", CLIENT_SECRET);
            config.put(p + "github.authorization-endpoint", base + "/github/login/oauth/authorize");
            config.put(p + "github.token-endpoint", base + "/github/login/oauth/access_token");
            config.put(p + "github.api-base", base + "/github/api");
            return config;
        } catch (Exception e) {
            throw new IllegalStateException("Cannot start the upstream double", e);
        }
    }

    private void handle(HttpServerRequest request, String body) throws Exception {
        String path = request.path();
        String[] parts = path.split("/");
        if (path.startsWith("/github/")) {
            github(request, body, path.substring("/github".length()));
            return;
        }
        String realm = parts.length > 1 ? parts[1] : "";
        if (!keys.containsKey(realm)) {
            request.response().setStatusCode(404).end();
            return;
        }
        String rest = path.substring(realm.length() + 1);
        String issuer = base + "/" + realm;
        switch (rest) {
            case "/.well-known/openid-configuration" -> json(request, 200, new JsonObject().put("issuer", issuer)
                    .put("authorization_endpoint", issuer + "/authorize").put("token_endpoint", issuer + "/token")
                    .put("userinfo_endpoint", issuer + "/userinfo")
                    .put("jwks_uri", issuer + (realm.equals("moved") ? "/jwks-moved" : "/jwks"))
                    .put("response_types_supported", new JsonArray().add("code"))
                    .put("subject_types_supported", new JsonArray().add("public"))
                    .put("id_token_signing_alg_values_supported", new JsonArray().add("RS256"))
                    .put("code_challenge_methods_supported", new JsonArray().add("S256"))
                    .put("authorization_response_iss_parameter_supported", true));
            case "/jwks" -> json(request, 200, new JsonObject(new JWKSet(keys.get(realm).toPublicJWK()).toJSONObject()));
            case "/jwks-moved" -> request.response().setStatusCode(302).putHeader("Location", issuer + "/jwks").end();
            case "/authorize" -> {
                String redirect = request.getParam("redirect_uri");
                String user = request.getParam("user");
                if (!CLIENT_ID.equals(request.getParam("client_id")) || redirect == null || user == null
                        || !"S256".equals(request.getParam("code_challenge_method")) || request.getParam("code_challenge") == null
                        || request.getParam("state") == null || request.getParam("nonce") == null) {
                    request.response().setStatusCode(400).end("bad authorization request");
                    return;
                }
                String code = "code-" + java.util.UUID.randomUUID();
                codes.put(code, new Grant(realm, CLIENT_ID, redirect, request.getParam("nonce"), request.getParam("code_challenge"),
                        user, request.getParam("tamper")));
                request.response().setStatusCode(302).putHeader("Location", redirect + "?code=" + enc(code) + "&state="
                        + enc(request.getParam("state")) + "&iss=" + enc(issuer)).end();
            }
            case "/token" -> token(request, body, realm, issuer);
            case "/userinfo" -> {
                String auth = request.getHeader("Authorization");
                Grant grant = auth == null || !auth.startsWith("Bearer ") ? null : accessTokens.get(auth.substring(7));
                if (grant == null || !grant.realm().equals(realm)) {
                    request.response().setStatusCode(401).putHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"").end();
                    return;
                }
                json(request, 200, person(grant));
            }
            default -> request.response().setStatusCode(404).end();
        }
    }

    private void token(HttpServerRequest request, String body, String realm, String issuer) throws JOSEException {
        Map<String, String> form = form(body);
        String client = form.get("client_id");
        String secret = form.get("client_secret");
        String basic = request.getHeader("Authorization");
        if (basic != null && basic.startsWith("Basic ")) {
            String[] pair = new String(Base64.getDecoder().decode(basic.substring(6)), StandardCharsets.UTF_8).split(":", 2);
            client = java.net.URLDecoder.decode(pair[0], StandardCharsets.UTF_8);
            secret = java.net.URLDecoder.decode(pair[1], StandardCharsets.UTF_8);
        }
        if (!CLIENT_ID.equals(client) || !CLIENT_SECRET.equals(secret)) {
            json(request, 401, new JsonObject().put("error", "invalid_client"));
            return;
        }
        Grant grant = codes.remove(form.getOrDefault("code", ""));
        if (grant == null || !grant.realm().equals(realm) || !grant.redirectUri().equals(form.get("redirect_uri"))
                || !"authorization_code".equals(form.get("grant_type"))
                || !grant.challenge().equals(s256(form.getOrDefault("code_verifier", "")))) {
            json(request, 400, new JsonObject().put("error", "invalid_grant"));
            return;
        }
        String accessToken = "at-" + java.util.UUID.randomUUID();
        accessTokens.put(accessToken, grant);
        JsonObject person = person(grant);
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issuer(issuer).subject(grant.user())
                .audience("aud".equals(grant.tamper()) ? List.of(CLIENT_ID, "another-client") : List.of(CLIENT_ID))
                .issueTime(new Date()).expirationTime(new Date(System.currentTimeMillis() + 300_000))
                .claim("nonce", "nonce".equals(grant.tamper()) ? "another-nonce" : grant.nonce())
                .claim("email", person.getString("email")).claim("email_verified", person.getBoolean("email_verified"));
        if ("azp".equals(grant.tamper())) {
            claims.claim("azp", "another-client");
        }
        if (grant.user().startsWith("mfa-")) {
            claims.claim("amr", List.of("pwd", "otp", "mfa")).claim("acr", "https://refeds.org/profile/mfa");
        } else {
            claims.claim("amr", List.of("pwd"));
        }
        SignedJWT idToken = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(keys.get(realm).getKeyID()).build(),
                claims.build());
        idToken.sign(new RSASSASigner(keys.get(realm)));
        json(request, 200, new JsonObject().put("access_token", accessToken).put("token_type", "Bearer").put("expires_in", 300)
                .put("id_token", idToken.serialize()));
    }

    /** What the provider says of a user: made from the subject. */
    private static JsonObject person(Grant grant) {
        String user = grant.user();
        // "as-alice": the address alice@example.org, which is also the address of alice's account here.
        String email = user.startsWith("as-") ? user.substring(3) + "@example.org" : user + "@uni.example";
        JsonObject person = new JsonObject().put("sub", user).put("preferred_username", user)
                .put("name", "Person " + user).put("email", email)
                .put("email_verified", !user.startsWith("unverified-"))
                .put("eduperson_assurance", new JsonArray().add("https://refeds.org/assurance").add(RAF_MEDIUM).add(OTHER_AUTHORITY));
        if (!grant.realm().equals("orcid")) {
            person.put("orcid", "0000-0002-1825-0097");
        }
        return person;
    }

    private void github(HttpServerRequest request, String body, String path) {
        switch (path) {
            case "/login/oauth/authorize" -> {
                String redirect = request.getParam("redirect_uri");
                String user = request.getParam("user");
                if (!CLIENT_ID.equals(request.getParam("client_id")) || redirect == null || user == null
                        || request.getParam("state") == null) {
                    request.response().setStatusCode(400).end("bad authorization request");
                    return;
                }
                String code = "gh-" + java.util.UUID.randomUUID();
                codes.put(code, new Grant("github", CLIENT_ID, redirect, null, request.getParam("code_challenge"), user, null));
                request.response().setStatusCode(302).putHeader("Location", redirect + "?code=" + enc(code) + "&state="
                        + enc(request.getParam("state"))).end();
            }
            case "/login/oauth/access_token" -> {
                // As GitHub: errors answer 200 with an error field; JSON only when asked for it.
                Map<String, String> form = form(body);
                Grant grant = codes.remove(form.getOrDefault("code", ""));
                JsonObject answer;
                if (!CLIENT_ID.equals(form.get("client_id")) || !CLIENT_SECRET.equals(form.get("client_secret"))) {
                    answer = new JsonObject().put("error", "incorrect_client_credentials");
                } else if (grant == null || !grant.realm().equals("github") || !grant.redirectUri().equals(form.get("redirect_uri"))
                        || (grant.challenge() != null && !grant.challenge().equals(s256(form.getOrDefault("code_verifier", ""))))) {
                    answer = new JsonObject().put("error", "bad_verification_code");
                } else {
                    String accessToken = "gho_" + java.util.UUID.randomUUID().toString().replace("-", "");
                    accessTokens.put(accessToken, grant);
                    answer = new JsonObject().put("access_token", accessToken).put("token_type", "bearer")
                            .put("scope", "read:user,user:email");
                }
                if (!"application/json".equals(request.getHeader("Accept"))) {
                    request.response().setStatusCode(200).end("error=not_json");
                    return;
                }
                json(request, 200, answer);
            }
            case "/api/user", "/api/user/emails" -> {
                String auth = request.getHeader("Authorization");
                Grant grant = auth == null ? null : accessTokens.get(auth.replaceFirst("^(Bearer|token) ", ""));
                if (grant == null || !grant.realm().equals("github") || request.getHeader("User-Agent") == null) {
                    json(request, 401, new JsonObject().put("message", "Requires authentication"));
                    return;
                }
                long id = Math.abs((long) grant.user().hashCode()) + 1_000;
                if (path.equals("/api/user")) {
                    json(request, 200, new JsonObject().put("id", id).put("login", grant.user()).put("name", "Octo " + grant.user()));
                } else {
                    request.response().setStatusCode(200).putHeader("Content-Type", "application/json").end(new JsonArray()
                            .add(new JsonObject().put("email", grant.user() + "@users.noreply.example").put("primary", false)
                                    .put("verified", true))
                            .add(new JsonObject().put("email", grant.user() + "@octo.example").put("primary", true)
                                    .put("verified", !grant.user().startsWith("unverified-"))).encode());
                }
            }
            default -> request.response().setStatusCode(404).end();
        }
    }

    private static Map<String, String> form(String body) {
        Map<String, String> form = new HashMap<>();
        for (String pair : body.split("&")) {
            if (!pair.isEmpty()) {
                String[] kv = pair.split("=", 2);
                form.put(java.net.URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                        kv.length > 1 ? java.net.URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
            }
        }
        return form;
    }

    private static String s256(String verifier) {
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                    MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static void json(HttpServerRequest request, int status, JsonObject body) {
        request.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body.encode());
    }

    @Override
    public void stop() {
        if (vertx != null) {
            vertx.close();
        }
    }
}
