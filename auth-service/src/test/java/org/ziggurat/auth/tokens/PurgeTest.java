package org.ziggurat.auth.tokens;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.OAuthTestSupport.App;
import org.ziggurat.auth.tokens.TokenRepository;
import org.ziggurat.platform.testing.ServiceDatabase;

import java.sql.Connection;
import java.sql.ResultSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.auth.OAuthTestSupport.aliceTokens;
import static org.ziggurat.auth.OAuthTestSupport.createApp;

@QuarkusTest
class PurgeTest {

    @Inject
    TokenRepository tokens;

    @Test
    void expiredTokensLeaveLiveOnesStay() throws Exception {
        App app = createApp(true, "public");
        aliceTokens(app, "public");
        aliceTokens(app, "public");
        try (Connection c = ServiceDatabase.connect()) {
            // One authorization expired two days ago; the other is live.
            c.createStatement().execute("UPDATE auth.token SET expires_at = now() - interval '2 days' WHERE family = "
                    + "(SELECT family FROM auth.token WHERE application_id = " + app.id() + " ORDER BY id LIMIT 1)");
            int purged = tokens.purgeExpired().await().indefinitely();
            assertTrue(purged >= 2, "purged " + purged);
            try (ResultSet r = c.createStatement().executeQuery("SELECT count(*) FROM auth.token WHERE application_id = " + app.id())) {
                r.next();
                assertEquals(2, r.getInt(1), "the live access and refresh tokens stay");
            }
        }
    }
}
