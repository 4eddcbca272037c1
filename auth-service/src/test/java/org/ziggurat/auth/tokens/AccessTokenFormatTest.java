package org.ziggurat.auth.tokens;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The resource decides an access token's format; the client only where none does; the platform's setting forces its own. */
class AccessTokenFormatTest {

    static final String PLATFORM = "https://ziggurat.example.org/api";
    static final String WANTS_JWT = "https://jwt.example.org";
    static final String WANTS_OPAQUE = "https://opaque.example.org";
    static final String NO_CHOICE = "https://any.example.org";

    static final ResourceServers SERVERS = new ResourceServers(PLATFORM, List.of(
            new ResourceServers.Server(WANTS_JWT, Set.of("user"), null, null, "jwt"),
            new ResourceServers.Server(WANTS_OPAQUE, Set.of("user"), null, null, "opaque"),
            new ResourceServers.Server(NO_CHOICE, Set.of("user"), null)));

    @Test
    void theResourceDecidesWhateverTheClientChose() {
        AccessTokenFormat formats = new AccessTokenFormat(SERVERS, null);
        for (boolean clientWantsJwt : new boolean[] {true, false}) {
            assertTrue(formats.jwt(clientWantsJwt, List.of(WANTS_JWT)));
            assertFalse(formats.jwt(clientWantsJwt, List.of(WANTS_OPAQUE)));
            // A resource that wants JWTs wins beside one that wants opaque tokens (which can introspect a JWT).
            assertTrue(formats.jwt(clientWantsJwt, List.of(WANTS_OPAQUE, WANTS_JWT)));
            assertFalse(formats.jwt(clientWantsJwt, List.of(WANTS_OPAQUE, NO_CHOICE)));
            // No choice of its own, or the platform's API unset: the client's.
            assertEquals(clientWantsJwt, formats.jwt(clientWantsJwt, List.of(NO_CHOICE)));
            assertEquals(clientWantsJwt, formats.jwt(clientWantsJwt, null));
            assertEquals(clientWantsJwt, formats.jwt(clientWantsJwt, List.of(PLATFORM)));
        }
        assertFalse(formats.jwt(null, null), "no client: opaque");
    }

    @Test
    void thePlatformsSettingForcesItsTokens() {
        AccessTokenFormat jwt = new AccessTokenFormat(SERVERS, "jwt");
        AccessTokenFormat opaque = new AccessTokenFormat(SERVERS, "opaque");
        for (boolean clientWantsJwt : new boolean[] {true, false}) {
            assertTrue(jwt.jwt(clientWantsJwt, null));
            assertTrue(jwt.jwt(clientWantsJwt, List.of(PLATFORM, WANTS_OPAQUE)));
            assertFalse(opaque.jwt(clientWantsJwt, null));
            assertFalse(opaque.jwt(clientWantsJwt, List.of(PLATFORM, NO_CHOICE)));
            assertTrue(opaque.jwt(clientWantsJwt, List.of(PLATFORM, WANTS_JWT)));
            // Other resources are not the platform's: its setting does not decide theirs.
            assertEquals(clientWantsJwt, jwt.jwt(clientWantsJwt, List.of(NO_CHOICE)));
        }
        assertThrows(IllegalStateException.class, () -> new AccessTokenFormat(SERVERS, "paseto"));
    }

    @Test
    void aRegisteredResourceDecidesOnceRegistered() {
        ResourceServers servers = new ResourceServers(PLATFORM, List.of());
        AccessTokenFormat formats = new AccessTokenFormat(servers, null);
        String registered = "https://registered.example.org";
        assertFalse(formats.jwt(false, List.of(registered)), "unknown: the client's");
        servers.registered(List.of(new ResourceServers.Server(registered, Set.of("user"), null, null, "jwt")), List.of());
        assertTrue(formats.jwt(false, List.of(registered)));
        servers.registered(List.of(), List.of());
        assertFalse(formats.jwt(false, List.of(registered)));
    }
}
