package org.ziggurat.directory.internal;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.core.Vertx;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryConfig;
import org.ziggurat.directory.people.EmailTokens;
import org.ziggurat.directory.security.Hashing;
import org.ziggurat.directory.security.HeldHashingPool;

import java.util.Map;

import static org.ziggurat.directory.DirectoryTestSupport.asService;

/**
 * A reset with a link that is no good costs no Argon2id hash. The new password was hashed before
 * the token was looked at, so anyone could post the public reset form with any 43 characters as
 * the token (no session, no CSRF token, no rate limit on the account pages) and cost directory-service
 * a hash each: enough of them kept the hashing queue full, and every sign-in was a 503.
 */
@QuarkusTest
class PasswordResetWorkTest {

    @Inject
    Hashing hashing;

    @Inject
    Vertx vertx;

    @Inject
    DirectoryConfig config;

    @Test
    void aResetWithAnUnknownTokenIsGoneWithoutWaitingForTheHashingQueue() throws Exception {
        try (HeldHashingPool held = HeldHashingPool.hold(vertx)) {
            // The queue full (its hashes cannot run while the pool is held): a hash asked for now is a 503.
            held.fill(hashing, config);
            asService("auth-service").contentType("application/json")
                    .body(Map.of("token", EmailTokens.newToken(), "password", "a new long password", "client_address",
                            "198.51.100.77"))
                    .post("/internal/password-resets").then().statusCode(410);
        }
        HeldHashingPool.awaitRoom(hashing);
    }
}
