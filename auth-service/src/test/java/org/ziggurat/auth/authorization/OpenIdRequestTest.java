package org.ziggurat.auth.authorization;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The OpenID Connect parameters of an authorization request, as plain rules. */
class OpenIdRequestTest {

    static AuthorizationRequest request(String... pairs) {
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            params.put(pairs[i], pairs[i + 1]);
        }
        return new AuthorizationRequest(null, "https://app.example.org/cb", params);
    }

    @Test
    void promptValues() {
        assertNull(request("prompt", "login consent").openIdProblem());
        assertNull(request("prompt", "none").openIdProblem());
        assertNotNull(request("prompt", "none consent").openIdProblem(), "none goes alone");
        assertNotNull(request("prompt", "whenever").openIdProblem());
        assertTrue(request("prompt", "select_account").forcesLogin());
        assertTrue(request("prompt", "consent login").forcesLogin());
        assertFalse(request("prompt", "consent").forcesLogin());
        assertTrue(request("prompt", "none").silent());
    }

    @Test
    void maxAge() {
        Instant now = Instant.parse("2026-11-25T12:00:00Z");
        assertTrue(request("max_age", "60").tooOld(now.minusSeconds(61), now));
        assertFalse(request("max_age", "60").tooOld(now.minusSeconds(60), now));
        assertTrue(request("max_age", "0").tooOld(now.minusSeconds(1), now));
        assertFalse(request().tooOld(now.minusSeconds(86_400), now));
        assertNotNull(request("max_age", "-5").openIdProblem());
        assertNotNull(request("max_age", "9999999999").openIdProblem());
    }

    @Test
    void nonce() {
        assertNull(request("nonce", "n".repeat(255)).openIdProblem());
        assertNotNull(request("nonce", "n".repeat(256)).openIdProblem());
        assertNotNull(request("nonce", "line\nbreak").openIdProblem());
    }

    @Test
    void aFreshSignInAnswersLoginAndMaxAge() {
        assertEquals(Map.of("state", "s", "prompt", "consent"),
                request("state", "s", "prompt", "login consent", "max_age", "0").afterSignIn());
        assertEquals(Map.of("state", "s"), request("state", "s", "prompt", "select_account").afterSignIn());
    }
}
