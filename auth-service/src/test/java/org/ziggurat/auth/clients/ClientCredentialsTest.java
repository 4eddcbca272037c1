package org.ziggurat.auth.clients;

import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.OAuthForm;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.clients.ApplicationRow;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Client authentication (RFC 6749 §2.3), without HTTP or the database. */
class ClientCredentialsTest {

    static final String FORM = "application/x-www-form-urlencoded";
    static final byte[] STORED = {1, 2, 3};

    static OAuthForm form(String body) {
        return OAuthForm.parse(FORM, body);
    }

    static String basic(String credentials) {
        return "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
    }

    static ApplicationRow app(boolean confidential) {
        return new ApplicationRow(4, 9L, "Notebook", "Notebook000000000001", confidential ? STORED : null, confidential,
                List.of("https://app.example.org/cb"), List.of("user"), true, false, List.of(), "RS256", false, null, null, Instant.EPOCH,
                Instant.EPOCH, false, null, "opaque", false, false, false);
    }

    static OAuthError refusal(Runnable call) {
        return assertThrows(OAuthException.class, call::run).error();
    }

    @Test
    void aClientIsClaimedByBasicOrByTheFormNeverByBoth() {
        assertNull(ClientCredentials.claimed(null, form("grant_type=password")));
        assertEquals(new ClientCredentials.Claimed("abc", "s3cret", false),
                ClientCredentials.claimed(null, form("client_id=abc&client_secret=s3cret")));
        assertEquals(new ClientCredentials.Claimed("abc", null, false), ClientCredentials.claimed(null, form("client_id=abc")));
        assertEquals(new ClientCredentials.Claimed("abc", "s3cret", true), ClientCredentials.claimed(basic("abc:s3cret"), form("")));
        assertEquals(new ClientCredentials.Claimed("abc", "s3cret", true),
                ClientCredentials.claimed("basic " + basic("abc:s3cret").substring(6), form("")), "the scheme has no case");
        // RFC 6749 §2.3.1: both parts form-encoded before Basic.
        assertEquals(new ClientCredentials.Claimed("a b", "p:w%", true), ClientCredentials.claimed(basic("a+b:p%3Aw%25"), form("")));
        assertEquals(new ClientCredentials.Claimed("", "s3cret", true), ClientCredentials.claimed(basic(":s3cret"), form("")),
                "an empty id is a claim, of no client (refused at the look-up)");
        assertEquals(new ClientCredentials.Claimed("abc", null, true), ClientCredentials.claimed(basic("abc:"), form("")),
                "an empty secret is none: a public client");
        assertEquals(new ClientCredentials.Claimed("abc", "s3cret", true),
                ClientCredentials.claimed(basic("abc:s3cret"), form("client_id=abc")), "the same id in the form is allowed");
        assertEquals(OAuthError.INVALID_REQUEST, refusal(() -> ClientCredentials.claimed(basic("abc:s3cret"),
                form("client_secret=s3cret"))));
        assertEquals(OAuthError.INVALID_REQUEST, refusal(() -> ClientCredentials.claimed(basic("abc:s3cret"), form("client_id=xyz"))));
        assertEquals(OAuthError.INVALID_CLIENT, refusal(() -> ClientCredentials.claimed("Basic %%%", form(""))));
        assertEquals(OAuthError.INVALID_CLIENT, refusal(() -> ClientCredentials.claimed(basic("no-colon"), form(""))));
        assertEquals(OAuthError.INVALID_CLIENT, refusal(() -> ClientCredentials.claimed(basic("abc:%zz"), form(""))));
        // A bearer token is not client authentication.
        assertNull(ClientCredentials.claimed("Bearer abc", form("")));
    }

    @Test
    void onlyAPlausibleIdIsLookedUp() {
        assertTrue(ClientCredentials.plausibleClientId("Notebook000000000001"));
        assertTrue(ClientCredentials.plausibleClientId("ziggurat-gateway"));
        assertTrue(ClientCredentials.plausibleClientId("a".repeat(64)));
        assertFalse(ClientCredentials.plausibleClientId("a".repeat(65)));
        assertFalse(ClientCredentials.plausibleClientId(""));
        assertFalse(ClientCredentials.plausibleClientId(null));
        assertFalse(ClientCredentials.plausibleClientId("abc\u0000"));
        assertFalse(ClientCredentials.plausibleClientId("\uD83D\uDE00"));
        assertEquals(OAuthError.INVALID_CLIENT, refusal(() -> ClientCredentials.requireLookup(null)));
        assertEquals(OAuthError.INVALID_CLIENT, refusal(() -> ClientCredentials.requireLookup(
                new ClientCredentials.Claimed("a b", null, false))));
        ClientCredentials.requireLookup(new ClientCredentials.Claimed("abc", null, false));
    }

    @Test
    void aConfidentialClientProvesItsSecretAPublicOneHasNone() {
        List<String> asked = new ArrayList<>();
        ApplicationRow confidential = app(true);
        assertSame(confidential, ClientCredentials.proven(new ClientCredentials.Claimed("Notebook000000000001", "right", true),
                confidential, (secret, hash) -> {
                    asked.add(secret);
                    return hash == STORED && secret.equals("right");
                }));
        assertEquals(List.of("right"), asked);
        assertEquals(OAuthError.INVALID_CLIENT, refusal(() -> ClientCredentials.proven(
                new ClientCredentials.Claimed("Notebook000000000001", "wrong", true), confidential, (s, h) -> false)));
        assertEquals(OAuthError.INVALID_CLIENT, refusal(() -> ClientCredentials.proven(
                new ClientCredentials.Claimed("Notebook000000000001", null, false), confidential, (s, h) -> s != null)));

        ApplicationRow open = app(false);
        assertSame(open, ClientCredentials.proven(new ClientCredentials.Claimed("Notebook000000000001", null, false), open,
                (s, h) -> {
                    throw new AssertionError("a public client has no secret to compare");
                }));
        assertEquals(OAuthError.INVALID_CLIENT, refusal(() -> ClientCredentials.proven(
                new ClientCredentials.Claimed("Notebook000000000001", "any", false), open, (s, h) -> true)));
        assertEquals(OAuthError.INVALID_CLIENT, refusal(() -> ClientCredentials.proven(
                new ClientCredentials.Claimed("Unknown0000000000000", "any", false), null, (s, h) -> true)));

        assertSame(confidential, ClientCredentials.confidentialOnly(confidential));
        assertEquals(OAuthError.INVALID_CLIENT, refusal(() -> ClientCredentials.confidentialOnly(open)));
    }

    @Test
    void theLogGetsAShortPrintableId() {
        assertEquals("-", ClientCredentials.safe(null));
        assertEquals("abc-_9", ClientCredentials.safe("abc-_9"));
        assertEquals("a?b", ClientCredentials.safe("a\nb"));
        assertEquals("?", ClientCredentials.safe("\uD83D\uDE00"));
        assertEquals("x".repeat(64), ClientCredentials.safe("x".repeat(65)));
    }

    /** A JWT naming {@code sub}, signed by some key: what claimed() reads before any key is asked. */
    static String assertionFor(String sub) {
        try {
            var jwt = new com.nimbusds.jwt.SignedJWT(new com.nimbusds.jose.JWSHeader(com.nimbusds.jose.JWSAlgorithm.ES256),
                    new com.nimbusds.jwt.JWTClaimsSet.Builder().subject(sub).build());
            jwt.sign(new com.nimbusds.jose.crypto.ECDSASigner(new com.nimbusds.jose.jwk.gen.ECKeyGenerator(
                    com.nimbusds.jose.jwk.Curve.P_256).generate()));
            return jwt.serialize();
        } catch (com.nimbusds.jose.JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    static String enc(String s) {
        return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /**
     * RFC 7521 §4.2 with RFC 7523 §2.2: the client is the assertion's subject; the type must be
     * jwt-bearer with an assertion; no secret or Basic beside it; a client_id beside it is its subject.
     */
    @Test
    void aClientAssertionClaimsItsSubjectAndNothingElseBesideIt() {
        String type = "client_assertion_type=" + enc(ClientAssertions.TYPE);
        String assertion = assertionFor("Notebook000000000001");
        ClientCredentials.Claimed claimed = ClientCredentials.claimed(null, form(type + "&client_assertion=" + assertion));
        assertEquals(new ClientCredentials.Claimed("Notebook000000000001", null, false, assertion), claimed);
        assertEquals(claimed, ClientCredentials.claimed(null, form(type + "&client_assertion=" + assertion
                + "&client_id=Notebook000000000001")));
        assertEquals(OAuthError.INVALID_CLIENT, refusal(() -> ClientCredentials.claimed(null, form(type + "&client_assertion="
                + assertion + "&client_id=Other00000000000001"))));
        assertEquals(OAuthError.INVALID_REQUEST, refusal(() -> ClientCredentials.claimed(null, form(type))));
        assertEquals(OAuthError.INVALID_REQUEST, refusal(() -> ClientCredentials.claimed(null, form("client_assertion_type=other"
                + "&client_assertion=" + assertion))));
        assertEquals(OAuthError.INVALID_REQUEST, refusal(() -> ClientCredentials.claimed(null, form("client_assertion="
                + assertion))));
        assertEquals(OAuthError.INVALID_REQUEST, refusal(() -> ClientCredentials.claimed(null, form(type + "&client_assertion="
                + assertion + "&client_secret=s3cret"))));
        assertEquals(OAuthError.INVALID_REQUEST, refusal(() -> ClientCredentials.claimed(basic("Notebook000000000001:s3cret"),
                form(type + "&client_assertion=" + assertion))));
        assertEquals(OAuthError.INVALID_REQUEST, refusal(() -> ClientCredentials.claimed(null, form(type + "&client_assertion=+"))));
        assertEquals(OAuthError.INVALID_CLIENT, refusal(() -> ClientCredentials.claimed(null, form(type
                + "&client_assertion=not-a-jwt"))));
        // A client that registered a secret does not prove itself with an assertion.
        assertEquals(OAuthError.INVALID_CLIENT, refusal(() -> ClientCredentials.proven(claimed, app(true), (a, b) -> true)));
        assertEquals(OAuthError.INVALID_CLIENT, refusal(() -> ClientCredentials.proven(claimed, app(false), (a, b) -> true)));
    }
}
