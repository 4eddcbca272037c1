package org.ziggurat.auth.oauth;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The OAuth protocol rules as plain code (they were tested only through HTTP): scopes, PKCE, redirect URIs. */
class ProtocolRulesTest {

    static OAuthError refusal(Runnable rule) {
        return assertThrows(OAuthException.class, rule::run).error();
    }

    @Test
    void scopesAreParsedInThePlatformsOrderAndUnknownOnesRefused() {
        assertEquals(List.of(), List.copyOf(Scopes.parse(null)));
        assertEquals(List.of(), List.copyOf(Scopes.parse("   ")));
        assertEquals(List.of("user", "write", "admin"), List.copyOf(Scopes.parse("admin  write user write")));
        assertEquals(List.of("public", "user"), List.copyOf(Scopes.parse(" user public ")));
        assertEquals(OAuthError.INVALID_SCOPE, refusal(() -> Scopes.parse("user root")));
        assertEquals(OAuthError.INVALID_SCOPE, refusal(() -> Scopes.parse("USER")));
        OAuthException forty = assertThrows(OAuthException.class, () -> Scopes.parse("y".repeat(40)));
        assertTrue(forty.getMessage().contains("'" + "y".repeat(40) + "'"), forty.getMessage());
        OAuthException long_ = assertThrows(OAuthException.class, () -> Scopes.parse("x".repeat(100) + "\u0007"));
        assertTrue(long_.getMessage().contains("…") && !long_.getMessage().contains("\u0007"), long_.getMessage());
    }

    @Test
    void publicNeedsNoGrantAndIsShownWhenThereIsNothingElse() {
        assertEquals(List.of("user"), Scopes.granted(List.of("public", "user")));
        assertEquals(List.of(), Scopes.granted(List.of("public")));
        assertEquals("public", Scopes.display(List.of()));
        assertEquals("user write", Scopes.display(List.of("user", "write")));
        assertEquals(List.of("public"), Scopes.list(List.of()));
        assertEquals(List.of("admin"), Scopes.list(List.of("admin")));
    }

    @Test
    void anApplicationAsksOnlyForWhatItRegistered() {
        Scopes.requireAllowed(Set.of("public", "user"), List.of("user"), false);
        Scopes.requireAllowed(Set.of(), List.of(), false);
        assertEquals(OAuthError.INVALID_SCOPE, refusal(() -> Scopes.requireAllowed(Set.of("user", "admin"), List.of("user"), true)));
        // The account scope: only for an application an operator verified, even when it registered it.
        Scopes.requireAllowed(Set.of("user", "account"), List.of("user", "account"), true);
        assertEquals(OAuthError.INVALID_SCOPE, refusal(() -> Scopes.requireAllowed(Set.of("account"), List.of("user", "account"),
                false)));
    }

    @Test
    void tokensMadeFromTokensKeepTheAccountScopeOnlyForAVerifiedApplication() {
        Scopes.requireFirstPartyOnlyVerified(List.of("user", "account"), true);
        Scopes.requireFirstPartyOnlyVerified(List.of("user", "admin"), false);
        Scopes.requireFirstPartyOnlyVerified(List.of(), false);
        assertEquals(OAuthError.INVALID_SCOPE, refusal(() -> Scopes.requireFirstPartyOnlyVerified(List.of("user", "account"),
                false)));
    }

    static final String VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";

    @Test
    void pkceIsS256Only() {
        // RFC 7636 appendix B.
        assertEquals("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", Pkce.s256(VERIFIER));
        String challenge = Pkce.s256(VERIFIER);
        assertEquals(challenge, Pkce.challenge(challenge, "S256"));
        assertNull(Pkce.challenge(null, null));
        assertNull(Pkce.challenge("", ""));
        assertEquals(OAuthError.INVALID_REQUEST, refusal(() -> Pkce.challenge(challenge, "plain")));
        assertEquals(OAuthError.INVALID_REQUEST, refusal(() -> Pkce.challenge(challenge, null)));
        assertEquals(OAuthError.INVALID_REQUEST, refusal(() -> Pkce.challenge(challenge, "")));
        assertEquals(OAuthError.INVALID_REQUEST, refusal(() -> Pkce.challenge(null, "S256")));
        assertEquals(OAuthError.INVALID_REQUEST, refusal(() -> Pkce.challenge(challenge + "A", "S256")));
        assertEquals(OAuthError.INVALID_REQUEST, refusal(() -> Pkce.challenge(challenge.substring(1), "S256")));
        assertEquals(OAuthError.INVALID_REQUEST, refusal(() -> Pkce.challenge(challenge.replace('-', '+'), "S256")));
    }

    @Test
    void aVerifierMatchesOnlyItsOwnChallenge() {
        String challenge = Pkce.s256(VERIFIER);
        assertTrue(Pkce.matches(VERIFIER, challenge));
        assertFalse(Pkce.matches(VERIFIER + "x", challenge));
        assertFalse(Pkce.matches(null, challenge));
        assertFalse(Pkce.matches(VERIFIER, null));
        // RFC 7636 §4.1: 43 to 128 characters of the unreserved set.
        String short42 = VERIFIER.substring(0, 42);
        assertFalse(Pkce.matches(short42, Pkce.s256(short42)));
        String long129 = "a".repeat(129);
        assertFalse(Pkce.matches(long129, Pkce.s256(long129)));
        String long128 = "a".repeat(128);
        assertTrue(Pkce.matches(long128, Pkce.s256(long128)));
        String odd = VERIFIER.substring(0, 42) + "!";
        assertFalse(Pkce.matches(odd, Pkce.s256(odd)));
    }

    /** RFC 8252 §7.1: a native app's private-use scheme in reverse-domain form, for public clients only. */
    @Test
    void nativeAppsMayUseAPrivateUseSchemeAndWebClientsMayNot() {
        for (String ok : new String[] {"edu.kit.data.oidc-agent:/redirect", "com.example.app:/oauth2redirect/example-provider",
                "org.example.notebook:/cb?x=1", "Com.Example.App:/cb"}) {
            assertNull(RedirectUris.problem(ok, true), ok);
            assertTrue(RedirectUris.isPrivateUse(ok), ok);
            assertEquals("a private-use URI scheme is for public clients (native apps, RFC 8252)", RedirectUris.problem(ok), ok);
            assertEquals("a private-use URI scheme is for public clients (native apps, RFC 8252)", RedirectUris.problem(ok, false), ok);
        }
        assertEquals("must be scheme:/path (RFC 8252 section 7.1), without a host",
                RedirectUris.problem("com.example.app://host/cb", true));
        assertEquals("must not have a fragment", RedirectUris.problem("com.example.app:/cb#x", true));
        // Schemes a browser gives a meaning of its own, and single-label schemes, are never an app's.
        for (String refused : new String[] {"javascript:alert(1)", "data:text/html,hi", "file:///etc/passwd", "vbscript:x",
                "about:blank", "blob:https://app.example.org/x", "myapp:/cb", "mailto:a@example.org", "com.:/cb", ".com.example:/cb"}) {
            assertNotNull(RedirectUris.problem(refused, true), refused);
            assertFalse(RedirectUris.isPrivateUse(refused), refused);
        }
        assertFalse(RedirectUris.isPrivateUse(null));
        assertFalse(RedirectUris.isPrivateUse("https://app.example.org/cb"));
        // The web rules still hold for a native app's other URIs.
        assertNull(RedirectUris.problem("http://127.0.0.1/cb", true));
        assertEquals("must use https (or http on a loopback address)", RedirectUris.problem("http://app.example.org/cb", true));
        assertEquals("edu.kit.data.oidc-agent:", org.ziggurat.auth.pages.PageHeaders.origin("edu.kit.data.oidc-agent:/redirect"));
        assertNull(org.ziggurat.auth.pages.PageHeaders.origin("urn:ietf:wg:oauth:2.0:oob"));
    }

    /** RFC 8252 §7.3: a loopback IP literal redirect takes any port at request time; nothing else varies. */
    @Test
    void aLoopbackRedirectMatchesOnAnyPort() {
        List<String> registered = List.of("http://127.0.0.1/cb", "http://[::1]:8080/native?x=1", "http://localhost:8080/cb",
                "https://app.example.org/cb", "edu.kit.data.oidc-agent:/redirect");
        for (String ok : new String[] {"http://127.0.0.1/cb", "http://127.0.0.1:54321/cb", "http://[::1]:9/native?x=1",
                "http://[::1]/native?x=1", "http://localhost:8080/cb", "https://app.example.org/cb",
                "edu.kit.data.oidc-agent:/redirect"}) {
            assertTrue(RedirectUris.registered(registered, ok), ok);
        }
        for (String refused : new String[] {"http://127.0.0.1:54321/other", "http://127.0.0.1:54321/cb?x=1",
                "http://127.0.0.1:54321/cb#f", "http://[::1]:9/native", "http://localhost:9090/cb", "http://127.0.0.2:1/cb",
                "https://127.0.0.1:54321/cb", "https://app.example.org:8443/cb", "http://me@127.0.0.1:5/cb",
                "edu.kit.data.oidc-agent:/other", "http://127.0.0.1:54321/cb/../cb", null}) {
            assertFalse(RedirectUris.registered(registered, refused), refused);
        }
        assertFalse(RedirectUris.registered(List.of("https://127.0.0.1/cb"), "https://127.0.0.1:5/cb"));
    }

    @Test
    void redirectUrisAreHttpsLoopbackOrOutOfBand() {
        for (String ok : new String[] {"https://app.example.org/callback", "https://app.example.org:8443/cb?x=1",
                "http://127.0.0.1:9/cb", "http://localhost/cb", "http://[::1]:8080/cb", "urn:ietf:wg:oauth:2.0:oob"}) {
            assertNull(RedirectUris.problem(ok), ok);
        }
        assertEquals("must not be empty", RedirectUris.problem(null));
        assertEquals("must not be empty", RedirectUris.problem(" "));
        assertEquals("must use https (or http on a loopback address)", RedirectUris.problem("http://app.example.org/cb"));
        assertEquals("must use https (or http on a loopback address)", RedirectUris.problem("ftp://app.example.org/cb"));
        assertEquals("must use https (or http on a loopback address)", RedirectUris.problem("http://127.0.0.2/cb"));
        assertEquals("must not have a fragment", RedirectUris.problem("https://app.example.org/cb#x"));
        assertEquals("must not carry user information", RedirectUris.problem("https://me@app.example.org/cb"));
        assertEquals("must be an absolute URI with a host", RedirectUris.problem("/cb"));
        assertEquals("must be an absolute URI with a host", RedirectUris.problem("mailto:a@example.org"));
        assertEquals("is not a valid URI", RedirectUris.problem("https://app.example.org/a|b"));
        assertEquals("must be at most 2000 characters without spaces or control characters",
                RedirectUris.problem("https://app.example.org/" + "a".repeat(2000)));
        assertEquals("must be at most 2000 characters without spaces or control characters",
                RedirectUris.problem("https://app.example.org/\u007f"));
        assertNull(RedirectUris.problem("https://app.example.org/" + "a".repeat(2000 - 24)));
        assertEquals("must be at most 2000 characters without spaces or control characters",
                RedirectUris.problem("https://app.example.org/" + "a".repeat(2001 - 24)));
        assertEquals("must be at most 2000 characters without spaces or control characters",
                RedirectUris.problem("https://app.example.org/a b"));
        assertNull(RedirectUris.problem("https://app.example.org/a!b"));
        assertTrue(RedirectUris.isOutOfBand("urn:ietf:wg:oauth:2.0:oob"));
        assertFalse(RedirectUris.isOutOfBand("urn:ietf:wg:oauth:2.0:oob:auto"));
        assertFalse(RedirectUris.isOutOfBand(null));
    }
}
