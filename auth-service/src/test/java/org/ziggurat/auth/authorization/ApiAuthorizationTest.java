package org.ziggurat.auth.authorization;

import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The API form's rules, without HTTP: whose token, and which scopes it may pass on. */
class ApiAuthorizationTest {

    static final long APP = 7;
    static final List<String> REGISTERED = List.of("public", "user", "write");

    static OAuthError refusal(ApiAuthorization.Presented token, String username, Set<String> requested) {
        return assertThrows(OAuthException.class, () -> ApiAuthorization.check(token, APP, REGISTERED, false, username, requested))
                .error();
    }

    @Test
    void thePersonsOwnTokenPassesOnWhatItCarries() {
        var own = new ApiAuthorization.Presented(null, "alice", List.of("user", "write"), null);
        assertDoesNotThrow(() -> ApiAuthorization.check(own, APP, REGISTERED, false, "alice", Set.of("user", "write")));
        assertDoesNotThrow(() -> ApiAuthorization.check(own, APP, REGISTERED, false, "ALICE", Set.of()));
        assertDoesNotThrow(() -> ApiAuthorization.check(own, APP, REGISTERED, false, "alice", Set.of("public")));
    }

    /**
     * Even the asking application's own token: what a client got in a session or by exchange would
     * become a new grant of its own, with refresh tokens, and outlive its session (third review).
     */
    @Test
    void aTokenOfTheAskingApplicationPassesOnNothing() {
        var same = new ApiAuthorization.Presented(APP, "alice", List.of("user"), null);
        assertEquals(OAuthError.INSUFFICIENT_SCOPE, refusal(same, "alice", Set.of("user")));
        assertEquals(OAuthError.INSUFFICIENT_SCOPE, refusal(same, "alice", Set.of()));
    }

    @Test
    void anExchangedTokenPassesOnNothing() {
        var exchanged = new ApiAuthorization.Presented(null, "alice", List.of("user"), "{\"sub\":\"storage-service\"}");
        assertEquals(OAuthError.INSUFFICIENT_SCOPE, refusal(exchanged, "alice", Set.of("user")));
    }

    @Test
    void anotherApplicationsTokenPassesOnNothing() {
        var other = new ApiAuthorization.Presented(APP + 1, "alice", List.of("user", "write", "update", "admin"), null);
        assertEquals(OAuthError.INSUFFICIENT_SCOPE, refusal(other, "alice", Set.of()));
        assertEquals(OAuthError.INSUFFICIENT_SCOPE, refusal(other, "alice", Set.of("user")));
    }

    @Test
    void noScopeBeyondTheTokensOrTheApplications() {
        var own = new ApiAuthorization.Presented(null, "alice", List.of(), null);
        assertEquals(OAuthError.INSUFFICIENT_SCOPE, refusal(own, "alice", Set.of("user")));
        var admin = new ApiAuthorization.Presented(null, "alice", List.of("user", "write", "admin"), null);
        assertEquals(OAuthError.INVALID_SCOPE, refusal(admin, "alice", Set.of("admin")));
    }

    @Test
    void anotherPersonsTokenIsRefused() {
        var bobs = new ApiAuthorization.Presented(null, "bob", List.of("user"), null);
        assertEquals(OAuthError.ACCESS_DENIED, refusal(bobs, "alice", Set.of()));
        assertEquals(OAuthError.ACCESS_DENIED, refusal(new ApiAuthorization.Presented(null, null, List.of(), null), "alice", Set.of()));
    }
}
