package org.ziggurat.auth.authorization;

import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuthConfig;

import java.time.Instant;

/**
 * Whether a session's person proved who they are within the last few minutes
 * ({@code ziggurat.auth.recent-sign-in}): then adding a way into the account (a passkey, an
 * authenticator app, another provider's identity) needs nothing more; later, the password or a
 * passkey again. A session cookie taken hours after its sign-in adds nothing on its own.
 */
@ApplicationScoped
class RecentSignIns {

    private final AuthConfig config;

    RecentSignIns(AuthConfig config) {
        this.config = config;
    }

    /** Read once, as a session is read ({@link LoginSessions.Session#recent}). */
    boolean recent(Instant authTime) {
        return authTime != null && authTime.isAfter(Instant.now().minus(config.recentSignIn()));
    }
}
