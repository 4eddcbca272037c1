package org.ziggurat.auth.tokens;

import org.junit.jupiter.api.Test;
import org.ziggurat.auth.tokens.TokenRow;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.tokens.TokenRules.RefreshRefusal.CLIENT_MUST_AUTHENTICATE;
import static org.ziggurat.auth.tokens.TokenRules.RefreshRefusal.INVALID;
import static org.ziggurat.auth.tokens.TokenRules.RefreshRefusal.OTHER_CLIENT;
import static org.ziggurat.auth.tokens.TokenRules.RefreshRefusal.OTHER_KEY;
import static org.ziggurat.auth.tokens.TokenRules.RefreshRefusal.REUSED;
import static org.ziggurat.auth.tokens.TokenRules.RefreshRefusal.WIDENS_SCOPES;

/** Token kinds and who may learn or change what of a token, without HTTP or the database. */
class TokenRulesTest {

    static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");
    static final long APP = 10;
    static final long PERSON = 7;

    static TokenRow token(char kind, Long app, Long person, Instant expires, Instant used, Instant revoked) {
        return new TokenRow(1, kind, app, app == null ? null : "Client" + app, person, person == null ? null : "ada",
                List.of("user", "write"), UUID.randomUUID(), expires, used, revoked, NOW.minusSeconds(60), NOW.plusSeconds(3600),
                person == null ? null : NOW.minusSeconds(120), person == null ? null : List.of("pwd"), null, null, null);
    }

    static TokenRow boundTo(TokenRow row, String jkt) {
        return new TokenRow(row.id(), row.kind(), row.applicationId(), row.clientId(), row.personId(), row.username(),
                row.scopes(), row.family(), row.expiresAt(), row.usedAt(), row.revokedAt(), row.createdAt(),
                row.authorizationExpiresAt(), row.authTime(), row.amr(), row.audience(), jkt, row.actor());
    }

    static TokenRow live(char kind, Long app, Long person) {
        return token(kind, app, person, NOW.plusSeconds(60), null, null);
    }

    @Test
    void onlyALiveAccessTokenIsABearer() {
        assertTrue(TokenRules.isBearer(live('a', APP, PERSON), NOW));
        assertTrue(TokenRules.isBearer(live('a', null, PERSON), NOW));
        assertFalse(TokenRules.isBearer(live('r', APP, PERSON), NOW), "a refresh token is no bearer");
        assertFalse(TokenRules.isBearer(null, NOW));
        assertFalse(TokenRules.isBearer(token('a', APP, PERSON, NOW, null, null), NOW), "expired at this instant");
        assertTrue(TokenRules.isBearer(token('a', APP, PERSON, NOW.plusMillis(1), null, null), NOW));
        assertFalse(TokenRules.isBearer(token('a', APP, PERSON, NOW.plusSeconds(60), null, NOW.minusSeconds(1)), NOW));
    }

    @Test
    void introspectionSaysActiveOnlyOfLiveTokensAndOnlyToThoseWhoMayAsk() {
        TokenRow access = live('a', APP, PERSON);
        assertTrue(TokenRules.activeFor(access, NOW, APP, false), "a client's own token");
        assertFalse(TokenRules.activeFor(access, NOW, APP + 1, false), "another client's token");
        assertTrue(TokenRules.activeFor(access, NOW, APP + 1, true), "the gateway may ask about any");
        assertFalse(TokenRules.activeFor(live('a', null, PERSON), NOW, APP, false), "a client-less token is no client's own");
        assertTrue(TokenRules.activeFor(live('a', null, PERSON), NOW, APP, true));
        assertTrue(TokenRules.activeFor(live('r', APP, PERSON), NOW, APP, false), "an unused refresh token is active");
        assertFalse(TokenRules.activeFor(token('r', APP, PERSON, NOW.plusSeconds(60), NOW.minusSeconds(5), null), NOW, APP, true),
                "a rotated refresh token is not");
        assertTrue(TokenRules.activeFor(token('a', APP, PERSON, NOW.plusSeconds(60), NOW.minusSeconds(5), null), NOW, APP, true),
                "use means nothing to an access token");
        assertFalse(TokenRules.activeFor(token('a', APP, PERSON, NOW.minusSeconds(1), null, null), NOW, APP, true));
        assertFalse(TokenRules.activeFor(token('a', APP, PERSON, NOW.plusSeconds(60), null, NOW), NOW, APP, true));
        assertFalse(TokenRules.activeFor(null, NOW, APP, true));
        assertEquals("bearer", TokenRules.tokenType(access));
        assertEquals("refresh_token", TokenRules.tokenType(live('r', APP, PERSON)));
    }

    @Test
    void aClientRevokesItsOwnTokensABearerThoseOfItsPersonAndClient() {
        TokenRow adas = live('a', APP, PERSON);
        assertTrue(TokenRules.mayRevoke(APP, null, adas), "the client itself");
        assertFalse(TokenRules.mayRevoke(APP + 1, null, adas), "another client");
        assertTrue(TokenRules.mayRevoke(APP, PERSON, adas), "a bearer of the same person and client");
        assertFalse(TokenRules.mayRevoke(APP, PERSON + 1, adas), "another person's bearer of the same client");
        assertFalse(TokenRules.mayRevoke(null, PERSON, adas), "the person's client-less bearer, for a client's token");
        assertTrue(TokenRules.mayRevoke(null, PERSON, live('r', null, PERSON)), "client-less, for client-less");
        assertFalse(TokenRules.mayRevoke(APP, PERSON, live('a', null, PERSON)), "a client's bearer, for a client-less token");
    }

    @Test
    void theAuthorizationEndpointDeletesOnlyTheClientsOwnAccessTokens() {
        assertTrue(TokenRules.deletableBy(live('a', APP, PERSON), APP, null));
        assertTrue(TokenRules.deletableBy(live('a', APP, PERSON), APP, "ADA"), "usernames compare without case");
        assertFalse(TokenRules.deletableBy(live('a', APP, PERSON), APP, "bob"));
        assertFalse(TokenRules.deletableBy(live('a', APP, PERSON), APP + 1, null));
        assertFalse(TokenRules.deletableBy(live('a', null, PERSON), APP, null));
        assertFalse(TokenRules.deletableBy(live('r', APP, PERSON), APP, null), "a refresh token is not an access_token");
        assertFalse(TokenRules.deletableBy(null, APP, null));
    }

    @Test
    void aRefusedRefreshSaysWhy() {
        Set<String> same = Set.of("user");
        assertEquals(REUSED, TokenRules.refreshRefusal(token('r', APP, PERSON, NOW.plusSeconds(60), NOW.minusSeconds(1), null),
                APP, same, NOW));
        assertEquals(REUSED, TokenRules.refreshRefusal(token('r', null, PERSON, NOW.plusSeconds(60), NOW.minusSeconds(1), null),
                null, same, NOW), "a client-less one is the person's own");
        assertEquals(INVALID, TokenRules.refreshRefusal(token('r', APP, PERSON, NOW.plusSeconds(60), NOW.minusSeconds(1),
                NOW.minusSeconds(1)), APP, same, NOW), "a replay of a revoked family revokes nothing more");
        assertEquals(INVALID, TokenRules.refreshRefusal(token('r', APP, PERSON, NOW.plusSeconds(60), NOW.minusSeconds(1), null),
                APP + 1, same, NOW), "another client's replay is no replay of its own");
        assertEquals(CLIENT_MUST_AUTHENTICATE, TokenRules.refreshRefusal(live('r', APP, PERSON), null, same, NOW));
        assertEquals(OTHER_CLIENT, TokenRules.refreshRefusal(live('r', APP, PERSON), APP + 1, same, NOW));
        assertEquals(OTHER_CLIENT, TokenRules.refreshRefusal(live('r', null, PERSON), APP, same, NOW));
        assertEquals(WIDENS_SCOPES, TokenRules.refreshRefusal(live('r', APP, PERSON), APP, Set.of("admin"), NOW));
        // A public client's refresh token bound to a DPoP key (RFC 9449 §5): only a proof of that key refreshes it.
        TokenRow bound = boundTo(live('r', APP, PERSON), "key-1");
        assertEquals(OTHER_KEY, TokenRules.refreshRefusal(bound, APP, Set.of(), NOW, null));
        assertEquals(OTHER_KEY, TokenRules.refreshRefusal(bound, APP, Set.of(), NOW, "key-2"));
        assertEquals(INVALID, TokenRules.refreshRefusal(bound, APP, Set.of(), NOW, "key-1"));
        assertEquals(INVALID, TokenRules.refreshRefusal(live('r', APP, PERSON), APP, Set.of(), NOW, "key-2"),
                "an unbound refresh token takes any proof, or none");
        assertEquals(INVALID, TokenRules.refreshRefusal(live('r', APP, PERSON), APP, Set.of("public", "write"), NOW),
                "within the grant: nothing to say but that it changed meanwhile");
        assertEquals(INVALID, TokenRules.refreshRefusal(live('a', APP, PERSON), APP, same, NOW), "an access token");
        assertEquals(INVALID, TokenRules.refreshRefusal(token('a', APP, PERSON, NOW.plusSeconds(60), NOW, null), APP, same, NOW),
                "an access token, used or not, is never a replay");
        assertEquals(INVALID, TokenRules.refreshRefusal(null, APP, same, NOW));
        assertEquals(INVALID, TokenRules.refreshRefusal(token('r', APP, PERSON, NOW, null, null), APP, Set.of("admin"), NOW),
                "expired");
        assertEquals(INVALID, TokenRules.refreshRefusal(token('r', APP, PERSON, NOW.plusSeconds(60), null, NOW), null, same, NOW),
                "revoked");
    }

    @Test
    void anAuthorizationLastsThePlatformsLimitOrTheApplicationsShorterOne() {
        java.time.Duration ninetyDays = java.time.Duration.ofDays(90);
        assertEquals(ninetyDays, TokenRules.authorizationLifetime(ninetyDays, null));
        assertEquals(java.time.Duration.ofSeconds(3600), TokenRules.authorizationLifetime(ninetyDays, 3600));
        assertEquals(ninetyDays, TokenRules.authorizationLifetime(ninetyDays, (int) ninetyDays.toSeconds()));
        assertEquals(ninetyDays, TokenRules.authorizationLifetime(ninetyDays, (int) ninetyDays.toSeconds() + 1));
        assertEquals(java.time.Duration.ofSeconds(ninetyDays.toSeconds() - 1),
                TokenRules.authorizationLifetime(ninetyDays, (int) ninetyDays.toSeconds() - 1));
    }

    static final java.time.Duration LIFETIME = java.time.Duration.ofDays(90);
    static final java.time.Duration SESSION = java.time.Duration.ofHours(12);
    static final byte[] SESSION_HASH = {1, 2, 3};

    @Test
    void anOpenIdConnectAuthorizationWithoutOfflineAccessEndsWithItsSession() {
        SignIn signIn = new SignIn(SESSION_HASH, NOW.plusSeconds(3600));
        TokenRules.Binding bound = TokenRules.binding(List.of("openid", "user"), signIn, NOW, LIFETIME, SESSION);
        assertEquals(NOW.plusSeconds(3600), bound.authorizationEnds(), "no longer than the session");
        assertTrue(java.util.Arrays.equals(SESSION_HASH, bound.sessionHash()), "revoked when the session ends");
        // A session that ends after the authorization's own limit does not lengthen it.
        assertEquals(NOW.plus(LIFETIME), TokenRules.binding(List.of("openid"), new SignIn(SESSION_HASH,
                NOW.plus(LIFETIME).plusSeconds(1)), NOW, LIFETIME, SESSION).authorizationEnds());
    }

    @Test
    void offlineAccessAndPlainOAuthOutliveTheSession() {
        SignIn signIn = new SignIn(SESSION_HASH, NOW.plusSeconds(3600));
        TokenRules.Binding offline = TokenRules.binding(List.of("openid", "offline_access"), signIn, NOW, LIFETIME, SESSION);
        assertEquals(NOW.plus(LIFETIME), offline.authorizationEnds());
        assertEquals(null, offline.sessionHash());
        TokenRules.Binding oauth = TokenRules.binding(List.of("user"), signIn, NOW, LIFETIME, SESSION);
        assertEquals(NOW.plus(LIFETIME), oauth.authorizationEnds());
        assertEquals(null, oauth.sessionHash());
    }

    @Test
    void withoutASignInAnOpenIdConnectAuthorizationLastsASessionsTime() {
        TokenRules.Binding password = TokenRules.binding(List.of("openid"), null, NOW, LIFETIME, SESSION);
        assertEquals(NOW.plus(SESSION), password.authorizationEnds());
        assertEquals(null, password.sessionHash());
        assertEquals(NOW.plus(java.time.Duration.ofHours(1)), TokenRules.binding(List.of("openid"), null, NOW,
                java.time.Duration.ofHours(1), SESSION).authorizationEnds(), "nor longer than its own limit");
    }

    @Test
    void nothingIsIssuedForASignInThatEnded() {
        assertEquals(null, TokenRules.binding(List.of("openid"), new SignIn(SESSION_HASH, null), NOW, LIFETIME, SESSION),
                "signed out");
        assertEquals(null, TokenRules.binding(List.of("openid"), new SignIn(SESSION_HASH, NOW), NOW, LIFETIME, SESSION),
                "expired at this instant");
        assertTrue(TokenRules.binding(List.of("openid", "offline_access"), new SignIn(SESSION_HASH, null), NOW, LIFETIME,
                SESSION) != null, "offline access does not depend on the session");
    }
}
