package org.ziggurat.directory.internal;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.mutiny.core.Vertx;
import jakarta.inject.Inject;
import org.apache.commons.codec.binary.Base32;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryTestSupport.Person;
import org.ziggurat.directory.factors.TotpRules;
import org.ziggurat.directory.security.Hashing;
import org.ziggurat.directory.security.HeldHashingPool;
import org.ziggurat.platform.testing.ServiceDatabase;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ziggurat.directory.DirectoryTestSupport.asService;
import static org.ziggurat.directory.DirectoryTestSupport.signUp;
import static org.ziggurat.directory.internal.ThrottleCounts.count;

/**
 * A wrong password or code whose caller went away mid-check (closed its connection: the request's
 * Uni cancelled) is counted, and is in its account's security log all the same. The check runs to
 * its end (LoginThrottle.runsToItsEnd), but the entry was written after it, on the way to the
 * answer, which a cancelled caller never takes: a guesser that sent each guess and closed at once
 * was throttled as any other, but its owner's security log showed none of its failures.
 */
@QuarkusTest
class GoneCallerFailuresTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Inject
    PasswordChecks passwords;

    @Inject
    SecondFactorChecks secondFactors;

    @Inject
    Hashing hashing;

    @Inject
    Vertx vertx;

    @Test
    void aWrongPasswordWhoseCallerWentAwayIsCountedAndLogged() throws Exception {
        Person person = signUp("gone-guess");
        String address = "198.51.100." + (1 + (int) (Math.random() * 250));
        String caller = "person:" + person.id() + "|address:" + address;
        try (HeldHashingPool held = HeldHashingPool.hold(vertx)) {
            Cancellable check = passwords.verify("auth-service",
                    new InternalResource.PasswordCheck(person.username(), "a wrong guess", address))
                    .subscribe().with(outcome -> { }, failure -> { });
            // Counted, and waiting for its hash (the pool is held); then its caller goes away.
            Awaitility.await().atMost(WAIT).until(() -> count(caller) == 1);
            check.cancel();
        }
        Awaitility.await().atMost(WAIT).until(() -> events(person.id(), "sign_in_failed") == 1);
        assertEquals(1, count(caller), "the wrong guess stays counted");
        HeldHashingPool.awaitRoom(hashing);
    }

    @Test
    void aWrongCodeWhoseCallerWentAwayIsCountedAndLogged() throws Exception {
        Person person = signUp("gone-code");
        byte[] key = new Base32().decode(asService("auth-service").post("/internal/people/" + person.id() + "/factors/totp")
                .then().statusCode(201).extract().<String>path("secret"));
        long step = TotpRules.step(Instant.now());
        asService("auth-service").contentType("application/json")
                .body(Map.of("person_id", person.id(), "code", TotpRules.codeAt(key, step), "client_address", "203.0.113.90"))
                .post("/internal/people/" + person.id() + "/factors/totp/confirmation").then().statusCode(200);
        String address = "203.0.113." + (100 + (int) (Math.random() * 150));
        String caller = SecondFactorChecks.accountKey(person.id()) + "|address:" + address;
        try (Connection db = ServiceDatabase.connect()) {
            db.setAutoCommit(false);
            // The next step's code, used meanwhile by another sign-in that has not committed yet: the
            // check finds it good, then waits for that sign-in's row, and finds it used (a replay, wrong).
            try (var s = db.prepareStatement("UPDATE directory.totp_factor SET last_step = ? WHERE person_id = ?")) {
                s.setLong(1, step + 1);
                s.setLong(2, person.id());
                assertEquals(1, s.executeUpdate());
            }
            // As a request's: on a duplicated Vert.x context marked safe (the factors' reactive session needs one).
            io.vertx.core.Context context = VertxContext.createNewDuplicatedContext(vertx.getDelegate().getOrCreateContext());
            VertxContextSafetyToggle.setContextSafe(context, true);
            AtomicReference<Cancellable> check = new AtomicReference<>();
            context.runOnContext(v -> check.set(secondFactors.verify("auth-service",
                    new InternalResource.SecondFactorCheck(person.id(), TotpRules.codeAt(key, step + 1), address))
                    .subscribe().with(outcome -> { }, failure -> { })));
            Awaitility.await().atMost(WAIT).until(() -> count(caller) == 1 && waitingOnTotp() > 0);
            check.get().cancel();
            db.commit();
        }
        Awaitility.await().atMost(WAIT).until(() -> events(person.id(), "second_factor_failed") == 1);
        assertEquals(1, count(caller), "the wrong code stays counted");
    }


    private static int events(long personId, String kind) throws SQLException {
        try (var c = ServiceDatabase.connect();
                var s = c.prepareStatement("SELECT count(*) FROM directory.account_event WHERE person_id = ? AND kind = ?")) {
            s.setLong(1, personId);
            s.setString(2, kind);
            try (var rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** Statements of other sessions waiting for a lock while they change a TOTP key's row. */
    private static int waitingOnTotp() throws SQLException {
        try (var c = ServiceDatabase.connect();
                var s = c.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                        + "AND query ILIKE '%totp_factor%' AND pid <> pg_backend_pid()")) {
            try (var rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
