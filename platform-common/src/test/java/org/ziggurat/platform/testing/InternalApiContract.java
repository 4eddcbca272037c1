package org.ziggurat.platform.testing;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One contract for the authentication of an internal call, run against a real service's internal
 * API and against each double that stands for it: the same callers get the same answers. (The
 * doubles accepted any X-Platform-Token at all.)
 */
public final class InternalApiContract {

    private InternalApiContract() {
    }

    /** {@code endpoint}: a GET of the internal API that a service may call. */
    public static void assertAuthenticatesLikeTheService(URI endpoint) throws Exception {
        Map<String, Integer> refused = new LinkedHashMap<>();
        refused.put("no token", null);
        refused.put("a person's token from the gateway", 403);
        refused.put("a person's token signed by an untrusted key", 401);
        refused.put("an expired person's token", 401);
        refused.put("a service token signed by another service's key", 401);
        refused.put("garbage", 401);
        Map<String, String> tokens = Map.of(
                "a person's token from the gateway", TestTokens.user(101, "alice", "user", "admin"),
                "a person's token signed by an untrusted key", TestTokens.userSignedByUnknownKey(101, "alice"),
                "an expired person's token", TestTokens.expiredUser(101, "alice"),
                "a service token signed by another service's key", TestTokens.serviceSignedBy("vocab-service", "auth-service"),
                "garbage", "not.a.token");
        HttpClient http = HttpClient.newHttpClient();
        for (Map.Entry<String, Integer> caller : refused.entrySet()) {
            HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).GET();
            String token = tokens.get(caller.getKey());
            if (token != null) {
                request.header("X-Platform-Token", token);
            }
            int status = http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            assertEquals(caller.getValue() == null ? 401 : caller.getValue(), status, caller.getKey() + " at " + endpoint);
        }
        int status = http.send(HttpRequest.newBuilder(endpoint).header("X-Platform-Token", TestTokens.service("auth-service"))
                .GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        assertTrue(status != 401 && status != 403, "a service's own token was refused (" + status + ") at " + endpoint);
    }
}
