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
public class RecentSignIns {

    private final AuthConfig config;

    RecentSignIns(AuthConfig config) {
        this.config = config;
    }

    public boolean recent(LoginSessions.Session session) {
        return session.authTime() != null && session.authTime().isAfter(Instant.now().minus(config.recentSignIn()));
    }
}
