package org.ziggurat.directory.internal;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.core.Vertx;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryConfig;
import org.ziggurat.directory.DirectoryTestSupport.Person;
import org.ziggurat.directory.security.Hashing;
import org.ziggurat.directory.security.HeldHashingPool;
import org.ziggurat.platform.problem.ProblemException;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.ziggurat.directory.DirectoryTestSupport.signUp;
import static org.ziggurat.directory.internal.ThrottleCounts.count;

/**
 * A check the hashing queue refused (a 503: nothing was hashed) costs its caller nothing: its
 * counts are given back, and so is its place among the account's checks from its address
 * ({@code account-checks}). That one stayed taken: while anyone kept the queue full, each retry of
 * a client that signs in often (a script's password grant, one NAT's sign-ins of one account)
 * used one up, and when the flood ended the client was refused 429 for the rest of the window
 * although no check of its had been made.
 */
@QuarkusTest
class BusyCheckCountsTest {

    @Inject
    PasswordChecks passwords;

    @Inject
    Hashing hashing;

    @Inject
    Vertx vertx;

    @Inject
    DirectoryConfig config;

    @Test
    void aCheckTheHashingQueueRefusedTakesNothingFromItsCaller() throws Exception {
        Person person = signUp("busy-check");
        String address = "198.51.100." + (1 + (int) (Math.random() * 250));
        String caller = "person:" + person.id() + "|address:" + address;
        try (HeldHashingPool held = HeldHashingPool.hold(vertx)) {
            held.fill(hashing, config);
            for (int i = 0; i < 3; i++) {
                ProblemException busy = assertThrows(ProblemException.class, () -> passwords.verify("auth-service",
                        new InternalResource.PasswordCheck(person.username(), "correct horse battery", address))
                        .await().atMost(Duration.ofSeconds(60)));
                assertEquals(503, busy.status());
            }
        }
        assertEquals(0, count(caller), "the account from this address");
        assertEquals(0, count("address:" + address), "the address");
        assertEquals(0, count("checks:" + caller), "the account's checks from this address");
        HeldHashingPool.awaitRoom(hashing);
    }
}
