package org.ziggurat.auth.tokens;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport.App;
import org.ziggurat.platform.testing.ServiceDatabase;

import java.sql.Connection;
import java.time.Duration;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.OWNER_ID;
import static org.ziggurat.auth.OAuthTestSupport.aliceTokens;
import static org.ziggurat.auth.OAuthTestSupport.asPerson;
import static org.ziggurat.auth.OAuthTestSupport.createApp;
import static org.ziggurat.auth.OAuthTestSupport.introspect;

/**
 * Introspection reads live access tokens from memory, and a token changed or removed by any
 * statement, even one behind the service's back, stops being answered as it was at once.
 */
@QuarkusTest
class LiveAccessTokensTest {

    @Inject
    LiveAccessTokens live;

    @Test
    void keptUntilTheDatabaseSaysOtherwise() throws Exception {
        awaitListening();
        App app = createApp(true, "public user");
        String revoked = (String) aliceTokens(app, "user").get("access_token");
        String deleted = (String) aliceTokens(app, "user").get("access_token");
        long iat = ((Number) introspect(revoked).body("active", equalTo(true)).extract().path("iat")).longValue();
        introspect(deleted).body("active", equalTo(true));
        try (Connection c = ServiceDatabase.connect()) {
            // A column no answer depends on for liveness: the kept answer stays, so memory was read.
            c.createStatement().execute("UPDATE auth.token SET created_at = '2001-01-01Z' WHERE application_id = "
                    + app.id() + " AND kind = 'a'");
            introspect(revoked).body("active", equalTo(true)).body("iat", equalTo((int) iat));
            // Revoked and deleted with SQL, behind the service: the notifications at commit tell it.
            c.createStatement().execute("UPDATE auth.token SET revoked_at = now() WHERE application_id = " + app.id()
                    + " AND kind = 'a' AND id = (SELECT min(id) FROM auth.token WHERE application_id = " + app.id()
                    + " AND kind = 'a')");
            c.createStatement().execute("DELETE FROM auth.token WHERE application_id = " + app.id()
                    + " AND kind = 'a' AND revoked_at IS NULL");
        }
        awaitInactive(revoked);
        awaitInactive(deleted);
    }

    @Test
    void aLargeDeletionForgetsEverything() throws Exception {
        awaitListening();
        String unrelated = (String) aliceTokens(createApp(true, "public user"), "user").get("access_token");
        introspect(unrelated).body("active", equalTo(true));
        App app = createApp(true, "public user");
        String token = (String) aliceTokens(app, "user").get("access_token");
        introspect(token).body("active", equalTo(true));
        assertTrue(live.size() >= 2, "both tokens are kept");
        try (Connection c = ServiceDatabase.connect()) {
            c.createStatement().execute("INSERT INTO auth.token (kind, hash, application_id, scopes, family, expires_at) "
                    + "SELECT 'a', sha256(('bulk' || g)::bytea), " + app.id() + ", '{}', gen_random_uuid(), "
                    + "now() + interval '1 hour' FROM generate_series(1, 5000) g");
            // 5,001 live tokens in one statement: more than V39 names (in parts of 100), so "forget all".
            c.createStatement().execute("DELETE FROM auth.token WHERE application_id = " + app.id());
        }
        await(() -> live.size() == 0, "every kept token is forgotten");
        awaitInactive(token);
        introspect(unrelated).body("active", equalTo(true));
    }

    @Test
    void aDeletedApplicationsTokensAreForgottenBeforeTheDeletionIsAnswered() {
        awaitListening();
        App app = createApp(true, "public user");
        String token = (String) aliceTokens(app, "user").get("access_token");
        introspect(token).body("active", equalTo(true));
        asPerson(OWNER_ID, "owner", "admin").delete("/applications/" + app.id()).then().statusCode(204);
        introspect(token).body("active", equalTo(false));
    }

    /**
     * Attack: any application owner emptied this replica's memory at will, with an application
     * created and deleted. Only the deleted application's tokens go from it now.
     */
    @Test
    void aDeletedApplicationTakesOnlyItsOwnTokensFromMemory() throws Exception {
        awaitListening();
        App other = createApp(true, "public user");
        String unrelated = (String) aliceTokens(other, "user").get("access_token");
        long iat = ((Number) introspect(unrelated).body("active", equalTo(true)).extract().path("iat")).longValue();
        App app = createApp(true, "public user");
        String gone = (String) aliceTokens(app, "user").get("access_token");
        introspect(gone).body("active", equalTo(true));
        asPerson(OWNER_ID, "owner", "admin").delete("/applications/" + app.id()).then().statusCode(204);
        introspect(gone).body("active", equalTo(false));
        try (Connection c = ServiceDatabase.connect()) {
            // A column no notification names: an answer with the old iat came from memory.
            c.createStatement().execute("UPDATE auth.token SET created_at = '2001-01-01Z' WHERE application_id = "
                    + other.id() + " AND kind = 'a'");
        }
        introspect(unrelated).body("active", equalTo(true)).body("iat", equalTo((int) iat));
    }

    @Test
    void nothingIsKeptWhileNotificationsCannotArrive() throws Exception {
        awaitListening();
        App app = createApp(true, "public user");
        String token = (String) aliceTokens(app, "user").get("access_token");
        introspect(token).body("active", equalTo(true));
        assertTrue(live.size() > 0, "the token is kept");
        try (Connection c = ServiceDatabase.connect()) {
            c.createStatement().execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    + "WHERE application_name = 'auth-service-token-listener' AND datname = current_database()");
            await(() -> !live.listening(), "the service notices its listener is gone");
            // Two steps in the service (stop reading memory, then empty it): await the second too,
            // instead of reading the size between them (CI once saw 4 there).
            await(() -> live.size() == 0, "everything kept is forgotten");
            // Nobody hears this revocation: memory may not answer for the token any more.
            c.createStatement().execute("UPDATE auth.token SET revoked_at = now() WHERE application_id = " + app.id());
            introspect(token).body("active", equalTo(false));
        }
        await(live::listening, "the listener reconnects by itself");
        introspect(token).body("active", equalTo(false));
        String next = (String) aliceTokens(createApp(true, "public user"), "user").get("access_token");
        introspect(next).body("active", equalTo(true));
        assertTrue(live.size() > 0, "tokens are kept again");
    }

    private static void awaitInactive(String token) {
        await(() -> Boolean.FALSE.equals(introspect(token).extract().path("active")), "the token is inactive");
    }

    private void awaitListening() {
        await(live::listening, "the service listens for token changes");
    }

    private static void await(java.util.concurrent.Callable<Boolean> condition, String what) {
        Awaitility.await(what).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(condition);
    }
}
