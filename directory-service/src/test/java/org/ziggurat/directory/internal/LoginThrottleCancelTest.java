package org.ziggurat.directory.internal;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.UniEmitter;
import jakarta.inject.Inject;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ziggurat.directory.internal.ThrottleCounts.count;

/**
 * A password check whose caller goes away mid-check (its connection closed) is still recorded: the
 * counts taken before it are given back when it passes. Left counted, each such check filled its
 * address's count like a failure, and a load generator ending its runs locked 127.0.0.1 out of
 * every sign-in within a minute.
 */
@QuarkusTest
class LoginThrottleCancelTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Inject
    LoginThrottle throttle;

    @Test
    void aCheckWhoseCallerWentAwayIsStillRecorded() throws Exception {
        String account = "account:gone-" + UUID.randomUUID();
        String address = "198.51.100." + (1 + (int) (Math.random() * 250));
        int before = count("address:" + address);
        AtomicReference<UniEmitter<? super Boolean>> check = new AtomicReference<>();
        Cancellable caller = throttle.guard(account, address, () -> Uni.createFrom().<Boolean>emitter(check::set),
                (Boolean passed) -> passed).subscribe().with(answer -> { }, failure -> { });
        // Counted, and the check under way.
        Awaitility.await().atMost(WAIT).until(() -> check.get() != null);
        assertEquals(before + 1, count("address:" + address));
        // The caller goes away; the check then passes: its counts are given back all the same.
        caller.cancel();
        check.get().complete(true);
        Awaitility.await().atMost(WAIT).until(() -> count("address:" + address) == before);
        assertEquals(0, count(account + "|address:" + address), "the account from this address: cleared by the success");
    }
}
