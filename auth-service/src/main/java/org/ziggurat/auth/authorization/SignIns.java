package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.directory.client.DirectoryClient;

/**
 * Signing in on the pages (login, device): the directory checks the password (and throttles), and
 * a login session begins. Security events name the page and client, never a secret.
 */
@ApplicationScoped
public class SignIns {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final DirectoryClient directory;
    private final LoginSessions sessions;

    SignIns(@RestClient DirectoryClient directory, LoginSessions sessions) {
        this.directory = directory;
        this.sessions = sessions;
    }

    /** Why signing in did not work: the password, or too many attempts (the directory's throttle). */
    public static final class SignInRefused extends RuntimeException {

        private final boolean throttled;

        SignInRefused(boolean throttled) {
            super(throttled ? "too many sign-in attempts" : "wrong login or password", null, false, false);
            this.throttled = throttled;
        }

        public boolean throttled() {
            return throttled;
        }
    }

    /**
     * Signs a person in for a request: a new login session. Fails with {@link SignInRefused}, or
     * with the directory's own failure when it cannot be asked.
     */
    public Uni<LoginSessions.Created> signIn(AuthorizationRequest request, String login, String password,
            String clientAddress) {
        return signIn("login", request.app().clientId(), login, password, clientAddress);
    }

    /**
     * Signs a person in on one of the pages ({@code page}: login, device), for a client when it is
     * known ({@code clientId}, for the log; "-" on the device page, before the code names one).
     */
    public Uni<LoginSessions.Created> signIn(String page, String clientId, String login, String password,
            String clientAddress) {
        return directory.verifyPassword(new DirectoryClient.PasswordCheck(login, password, clientAddress))
                .chain(person -> sessions.create(person.userId(), person.username()))
                .invoke(created -> EVENTS.infof("event=login_succeeded page=%s client_id=%s person_id=%d", page,
                        clientId, created.session().personId()))
                .onFailure(DirectoryClient.PasswordRefused.class).transform(e -> {
                    EVENTS.infof("event=login_failed page=%s client_id=%s", page, clientId);
                    return new SignInRefused(false);
                })
                .onFailure(DirectoryClient.PasswordThrottled.class).transform(e -> new SignInRefused(true));
    }

    /** A page's form that this site did not send; {@code clientId} "-" where no client is known yet. */
    public void csrfRefused(String page, String clientId, LoginSessions.Session session) {
        if (session == null) {
            EVENTS.infof("event=csrf_refused page=%s client_id=%s", page, clientId);
        } else {
            EVENTS.infof("event=csrf_refused page=%s client_id=%s person_id=%d", page, clientId, session.personId());
        }
    }
}
