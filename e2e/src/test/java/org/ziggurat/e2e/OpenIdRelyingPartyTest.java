package org.ziggurat.e2e;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.AuthorizationGrant;
import com.nimbusds.oauth2.sdk.RefreshTokenGrant;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.token.BearerAccessToken;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.AuthenticationResponse;
import com.nimbusds.openid.connect.sdk.AuthenticationResponseParser;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.UserInfoRequest;
import com.nimbusds.openid.connect.sdk.UserInfoResponse;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import com.nimbusds.openid.connect.sdk.claims.UserInfo;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import com.nimbusds.oauth2.sdk.GrantType;
import com.nimbusds.openid.connect.sdk.rp.OIDCClientInformation;
import com.nimbusds.openid.connect.sdk.rp.OIDCClientInformationResponse;
import com.nimbusds.openid.connect.sdk.rp.OIDCClientMetadata;
import com.nimbusds.openid.connect.sdk.rp.OIDCClientRegistrationRequest;
import com.nimbusds.openid.connect.sdk.rp.OIDCClientRegistrationResponseParser;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import org.junit.jupiter.api.Test;

import java.net.URI;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Signing in with Ziggurat as relying parties that nobody here wrote see it, through the gateway:
 * the Nimbus OpenID Connect SDK configures itself from discovery alone, registers its client
 * (RFC 7591), validates ID tokens with
 * its own IDTokenValidator against the published JWKS, and reads userinfo, before and after the
 * signing key rotates.
 */
class OpenIdRelyingPartyTest {

    record RelyingParty(ClientID id, Secret secret, URI redirect) {
    }

    /** The library registers the relying party itself (RFC 7591), with the person's admin token. */
    static RelyingParty register(OIDCProviderMetadata provider, String adminToken, String redirect) throws Exception {
        OIDCClientMetadata metadata = new OIDCClientMetadata();
        metadata.setName("Notebook hub");
        metadata.setRedirectionURI(URI.create(redirect));
        metadata.setScope(new Scope("openid", "profile", "email"));
        metadata.setGrantTypes(java.util.Set.of(GrantType.AUTHORIZATION_CODE, GrantType.REFRESH_TOKEN));
        metadata.applyDefaults();
        var response = OIDCClientRegistrationResponseParser.parse(new OIDCClientRegistrationRequest(
                provider.getRegistrationEndpointURI(), metadata, new BearerAccessToken(adminToken)).toHTTPRequest().send());
        assertTrue(response.indicatesSuccess(), () -> ((com.nimbusds.oauth2.sdk.client.ClientRegistrationErrorResponse) response)
                .getErrorObject().toJSONObject().toString());
        OIDCClientInformation info = ((OIDCClientInformationResponse) response).getOIDCClientInformation();
        assertNotNull(info.getRegistrationAccessToken(), "RFC 7592's token to manage the registration");
        assertEquals(JWSAlgorithm.RS256, info.getOIDCMetadata().getIDTokenJWSAlg());
        return new RelyingParty(info.getID(), info.getSecret(), URI.create(redirect));
    }

    @Test
    void nimbusSignsInValidatesIdTokensAndReadsUserinfoAcrossAKeyRotation() throws Exception {
        OIDCProviderMetadata provider = OIDCProviderMetadata.resolve(new Issuer(Platform.api()));
        assertEquals(URI.create(Platform.api() + "/oauth/userinfo"), provider.getUserInfoEndpointURI());
        assertTrue(provider.getIDTokenJWSAlgs().contains(JWSAlgorithm.RS256));

        Platform.Person ada = Platform.signUp("oidc");
        RelyingParty rp = register(provider, Platform.accessToken(ada, "admin"), "http://127.0.0.1:9/oidc/callback");
        CodeVerifier verifier = new CodeVerifier();
        State state = new State();
        Nonce nonce = new Nonce();
        AuthenticationRequest request = new AuthenticationRequest.Builder(new ResponseType(ResponseType.Value.CODE),
                new Scope("openid", "profile", "email"), rp.id(), rp.redirect())
                .endpointURI(provider.getAuthorizationEndpointURI()).state(state).nonce(nonce)
                .codeChallenge(verifier, CodeChallengeMethod.S256).build();
        AuthenticationResponse answer = AuthenticationResponseParser.parse(
                new OAuthJourneyTest.BrowserlessUser(ada).authorize(request.toURI()));
        assertTrue(answer.indicatesSuccess(), answer.toString());
        assertEquals(state, answer.getState());
        assertEquals(provider.getIssuer(), answer.toSuccessResponse().getIssuer(), "RFC 9207");

        OIDCTokenResponse tokens = token(provider, rp, new AuthorizationCodeGrant(
                answer.toSuccessResponse().getAuthorizationCode(), rp.redirect(), verifier));
        // The library fetches the JWKS from jwks_uri (and again for a key id it does not know).
        IDTokenValidator validator = new IDTokenValidator(provider.getIssuer(), rp.id(), JWSAlgorithm.RS256,
                provider.getJWKSetURI().toURL());
        JWT firstIdToken = tokens.getOIDCTokens().getIDToken();
        IDTokenClaimsSet first = validator.validate(firstIdToken, nonce);
        assertEquals(Long.toString(ada.id()), first.getSubject().getValue(), "sub is the person's id");
        UserInfo info = userInfo(provider, tokens.getOIDCTokens().getBearerAccessToken());
        assertEquals(first.getSubject(), info.getSubject());
        assertEquals(ada.username(), info.getPreferredUsername());
        assertEquals(ada.username() + "@example.org", info.getEmailAddress());

        // The key that signed retires within seconds: its successor is published before it signs
        // (the rotation job runs every 2 s here), then signs; the first stays published.
        String firstKid = ((SignedJWT) firstIdToken).getHeader().getKeyID();
        assertEquals(1, Stack.get().sql("UPDATE auth.signing_key SET retire_at = now() + interval '4 seconds' WHERE kid = ?",
                firstKid));
        OIDCTokenResponse after = tokens;
        String kid = firstKid;
        long deadline = System.currentTimeMillis() + 90_000;
        while (kid.equals(firstKid) && System.currentTimeMillis() < deadline) {
            Thread.sleep(1000);
            after = token(provider, rp, new RefreshTokenGrant(after.getOIDCTokens().getRefreshToken()));
            kid = ((SignedJWT) after.getOIDCTokens().getIDToken()).getHeader().getKeyID();
        }
        assertNotEquals(firstKid, kid, "no ID token signed by the next key within 90 s");
        IDTokenClaimsSet rotated = validator.validate(after.getOIDCTokens().getIDToken(), null);
        assertEquals(first.getSubject(), rotated.getSubject());
        assertEquals(first.getAuthenticationTime(), rotated.getAuthenticationTime(), "auth_time is the first sign-in's");
        // The first ID token still validates: its key stays published until its tokens have expired.
        assertNotNull(new IDTokenValidator(provider.getIssuer(), rp.id(), JWSAlgorithm.RS256, provider.getJWKSetURI().toURL())
                .validate(firstIdToken, nonce));
        assertEquals(first.getSubject(), userInfo(provider, after.getOIDCTokens().getBearerAccessToken()).getSubject());
    }

    /**
     * A relying party that proves itself with its own key (private_key_jwt, OpenID Connect Core §9):
     * Nimbus registers it with its public JWK set, gets no secret, signs in a person and redeems the
     * code with a signed assertion; a replayed assertion is refused.
     */
    @Test
    void nimbusRegistersItsKeysAndAuthenticatesWithPrivateKeyJwt() throws Exception {
        OIDCProviderMetadata provider = OIDCProviderMetadata.resolve(new Issuer(Platform.api()));
        assertTrue(provider.getTokenEndpointAuthMethods().contains(com.nimbusds.oauth2.sdk.auth.ClientAuthenticationMethod
                .PRIVATE_KEY_JWT));
        com.nimbusds.jose.jwk.RSAKey key = new com.nimbusds.jose.jwk.gen.RSAKeyGenerator(2048).keyID("rp-1").generate();
        Platform.Person ada = Platform.signUp("pkjwt");
        OIDCClientMetadata metadata = keyedMetadata("Signed notebook hub", "http://127.0.0.1:9/pkjwt/callback", key);
        OIDCClientInformation info = registerKeyed(provider, ada, metadata);
        assertEquals(null, info.getSecret(), "no secret for a client that proves itself with its key");

        CodeVerifier verifier = new CodeVerifier();
        AuthenticationRequest request = new AuthenticationRequest.Builder(new ResponseType(ResponseType.Value.CODE),
                new Scope("openid", "profile"), info.getID(), metadata.getRedirectionURI())
                .endpointURI(provider.getAuthorizationEndpointURI()).state(new State()).nonce(new Nonce())
                .codeChallenge(verifier, CodeChallengeMethod.S256).build();
        AuthenticationResponse answer = AuthenticationResponseParser.parse(
                new OAuthJourneyTest.BrowserlessUser(ada).authorize(request.toURI()));
        assertTrue(answer.indicatesSuccess(), answer.toString());
        var assertion = new com.nimbusds.oauth2.sdk.auth.PrivateKeyJWT(info.getID(), provider.getTokenEndpointURI(),
                JWSAlgorithm.RS256, key.toPrivateKey(), key.getKeyID(), null);
        var http = new TokenRequest(provider.getTokenEndpointURI(), assertion, new AuthorizationCodeGrant(
                answer.toSuccessResponse().getAuthorizationCode(), metadata.getRedirectionURI(), verifier)).toHTTPRequest();
        var tokens = OIDCTokenResponseParser.parse(http.send());
        assertTrue(tokens.indicatesSuccess(), () -> tokens.toErrorResponse().getErrorObject().toJSONObject().toString());
        IDTokenClaimsSet claims = new IDTokenValidator(provider.getIssuer(), info.getID(), JWSAlgorithm.RS256,
                provider.getJWKSetURI().toURL()).validate(((OIDCTokenResponse) tokens.toSuccessResponse()).getOIDCTokens()
                .getIDToken(), null);
        assertEquals(Long.toString(ada.id()), claims.getSubject().getValue());
        // The same assertion again (with a code it would not redeem anyway): refused as a replay.
        var replay = OIDCTokenResponseParser.parse(new TokenRequest(provider.getTokenEndpointURI(), assertion,
                new com.nimbusds.oauth2.sdk.ClientCredentialsGrant(), new Scope("profile")).toHTTPRequest().send());
        assertEquals("invalid_client", replay.toErrorResponse().getErrorObject().getCode());
    }

    /**
     * Nimbus as a relying party that signs its requests (OpenID Connect Core §6.1): registered with
     * its keys, it posts the authorization request (§3.1.2.1) whose state, nonce and claims request
     * (§5.5: the name for the ID token) are only inside a request object it signed; the ID token it
     * validates carries that nonce and the name.
     */
    @Test
    void nimbusPostsASignedRequestObjectWithAClaimsRequest() throws Exception {
        OIDCProviderMetadata provider = OIDCProviderMetadata.resolve(new Issuer(Platform.api()));
        assertTrue(provider.supportsClaimsParam() && provider.supportsRequestParam());
        com.nimbusds.jose.jwk.RSAKey key = new com.nimbusds.jose.jwk.gen.RSAKeyGenerator(2048).keyID("ro-1").generate();
        Platform.Person grace = Platform.signUp("signedrp");
        OIDCClientMetadata metadata = keyedMetadata("Signed requests hub", "http://127.0.0.1:9/signed/callback", key);
        metadata.setRequestObjectJWSAlg(JWSAlgorithm.RS256);
        OIDCClientInformation info = registerKeyed(provider, grace, metadata);

        CodeVerifier verifier = new CodeVerifier();
        Nonce nonce = new Nonce();
        State state = new State();
        AuthenticationRequest inside = new AuthenticationRequest.Builder(new ResponseType(ResponseType.Value.CODE),
                new Scope("openid", "profile"), info.getID(), metadata.getRedirectionURI()).state(state).nonce(nonce)
                .claims(new com.nimbusds.openid.connect.sdk.OIDCClaimsRequest().withIDTokenClaimsRequest(
                        new com.nimbusds.openid.connect.sdk.claims.ClaimsSetRequest().add("name")))
                .codeChallenge(verifier, CodeChallengeMethod.S256).build();
        com.nimbusds.jwt.SignedJWT requestObject = new com.nimbusds.jwt.SignedJWT(new com.nimbusds.jose.JWSHeader.Builder(
                JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), new com.nimbusds.jwt.JWTClaimsSet.Builder(
                inside.toJWTClaimsSet()).issuer(info.getID().getValue()).audience(provider.getIssuer().getValue()).build());
        requestObject.sign(new com.nimbusds.jose.crypto.RSASSASigner(key));
        // Beside the object only what OpenID Connect requires outside it.
        String form = "response_type=code&scope=openid&client_id=" + info.getID().getValue() + "&request="
                + requestObject.serialize();
        AuthenticationResponse answer = AuthenticationResponseParser.parse(
                new OAuthJourneyTest.BrowserlessUser(grace).authorizeByPost(form));
        assertTrue(answer.indicatesSuccess(), answer.toString());
        assertEquals(state, answer.getState(), "the state sent only inside the request object");
        var assertion = new com.nimbusds.oauth2.sdk.auth.PrivateKeyJWT(info.getID(), provider.getTokenEndpointURI(),
                JWSAlgorithm.RS256, key.toPrivateKey(), key.getKeyID(), null);
        var tokens = OIDCTokenResponseParser.parse(new TokenRequest(provider.getTokenEndpointURI(), assertion,
                new AuthorizationCodeGrant(answer.toSuccessResponse().getAuthorizationCode(), metadata.getRedirectionURI(),
                        verifier)).toHTTPRequest().send());
        assertTrue(tokens.indicatesSuccess(), () -> tokens.toErrorResponse().getErrorObject().toJSONObject().toString());
        IDTokenClaimsSet claims = new IDTokenValidator(provider.getIssuer(), info.getID(), JWSAlgorithm.RS256,
                provider.getJWKSetURI().toURL()).validate(((OIDCTokenResponse) tokens.toSuccessResponse()).getOIDCTokens()
                .getIDToken(), nonce);
        assertEquals(Long.toString(grace.id()), claims.getSubject().getValue());
        assertEquals("signedrp", claims.getStringClaim("name"), "the claims request's name, in the ID token");
    }

    /** A code-flow relying party that authenticates with its RSA key (private_key_jwt, RS256), its public key registered. */
    static OIDCClientMetadata keyedMetadata(String name, String redirect, com.nimbusds.jose.jwk.RSAKey key) {
        OIDCClientMetadata metadata = new OIDCClientMetadata();
        metadata.setName(name);
        metadata.setRedirectionURI(URI.create(redirect));
        metadata.setScope(new Scope("openid", "profile"));
        metadata.setGrantTypes(java.util.Set.of(GrantType.AUTHORIZATION_CODE));
        metadata.setTokenEndpointAuthMethod(com.nimbusds.oauth2.sdk.auth.ClientAuthenticationMethod.PRIVATE_KEY_JWT);
        metadata.setTokenEndpointAuthJWSAlg(JWSAlgorithm.RS256);
        metadata.setJWKSet(new com.nimbusds.jose.jwk.JWKSet(key.toPublicJWK()));
        return metadata;
    }

    /** The library registers the metadata (RFC 7591) with the person's admin token. */
    static OIDCClientInformation registerKeyed(OIDCProviderMetadata provider, Platform.Person who, OIDCClientMetadata metadata)
            throws Exception {
        metadata.applyDefaults();
        var registered = OIDCClientRegistrationResponseParser.parse(new OIDCClientRegistrationRequest(
                provider.getRegistrationEndpointURI(), metadata, new BearerAccessToken(Platform.accessToken(who, "admin")))
                .toHTTPRequest().send());
        assertTrue(registered.indicatesSuccess(), () -> ((com.nimbusds.oauth2.sdk.client.ClientRegistrationErrorResponse)
                registered).getErrorObject().toJSONObject().toString());
        return ((OIDCClientInformationResponse) registered).getOIDCClientInformation();
    }

    static OIDCTokenResponse token(OIDCProviderMetadata provider, RelyingParty rp, AuthorizationGrant grant) throws Exception {
        var http = new TokenRequest(provider.getTokenEndpointURI(), new ClientSecretBasic(rp.id(), rp.secret()), grant)
                .toHTTPRequest();
        http.setAccept("application/json");
        var response = OIDCTokenResponseParser.parse(http.send());
        assertTrue(response.indicatesSuccess(), () -> response.toErrorResponse().getErrorObject().toJSONObject().toString());
        return (OIDCTokenResponse) response.toSuccessResponse();
    }

    static UserInfo userInfo(OIDCProviderMetadata provider, BearerAccessToken token) throws Exception {
        UserInfoResponse response = UserInfoResponse.parse(new UserInfoRequest(provider.getUserInfoEndpointURI(), token)
                .toHTTPRequest().send());
        assertTrue(response.indicatesSuccess(), () -> response.toErrorResponse().getErrorObject().toJSONObject().toString());
        return response.toSuccessResponse().getUserInfo();
    }
}
