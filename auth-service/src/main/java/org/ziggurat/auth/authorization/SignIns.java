package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.auth.oauth.AuthenticationMethods;
import org.ziggurat.auth.passkeys.PasskeyChallenges;
import org.ziggurat.auth.passkeys.PasskeyVerifier;
import org.ziggurat.auth.passkeys.Passkeys;

/**
 * Signing in on the pages (login, device): the directory checks the password (and throttles), and
 * a login session begins. Security events name the page and client, never a secret.
 */
@ApplicationScoped
public class SignIns {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final DirectoryClient directory;
    private final LoginSessions sessions;
    private final PendingSignIns pending;
    private final Passkeys passkeys;

    private final SecurityLogEntries securityLog;

    SignIns(@RestClient DirectoryClient directory, LoginSessions sessions, PendingSignIns pending, Passkeys passkeys,
            SecurityLogEntries securityLog) {
        this.securityLog = securityLog;
        this.directory = directory;
        this.sessions = sessions;
        this.pending = pending;
        this.passkeys = passkeys;
    }

    /**
     * A right password: the session, for a person without a second factor; else the pending
     * sign-in's cookie value, which the second factor's form comes back with.
     */
    public record PasswordPassed(LoginSessions.Created session, String pendingSignIn, long personId) {
    }

    /** A signed-in session after the second factor; {@code recoveryCodesLeft} when a recovery code was used, else -1. */
    public record SecondFactorPassed(LoginSessions.Created session, long recoveryCodesLeft) {
    }

    /** The pending sign-in is unknown, used or older than {@link PendingSignIns#LIFETIME}: start again. */
    public static final class PendingSignInGone extends RuntimeException {
        PendingSignInGone() {
            super("no pending sign-in", null, false, false);
        }
    }

    /**
     * Why signing in did not work: the password, code or passkey, or too many attempts (the
     * directory's throttle). {@code personId}: whose second factor it was, 0 when not known.
     */
    public static final class SignInRefused extends RuntimeException {

        private final boolean throttled;
        private final long personId;

        SignInRefused(boolean throttled) {
            this(throttled, 0);
        }

        SignInRefused(boolean throttled, long personId) {
            super(throttled ? "too many sign-in attempts" : "wrong login or password", null, false, false);
            this.throttled = throttled;
            this.personId = personId;
        }

        public boolean throttled() {
            return throttled;
        }

        public long personId() {
            return personId;
        }
    }

    /**
     * Signs a person in for a request: a new login session. Fails with {@link SignInRefused}, or
     * with the directory's own failure when it cannot be asked.
     */

    /**
     * Signs a person in on one of the pages ({@code page}: login, device), for a client when it is
     * known ({@code clientId}, for the log; "-" on the device page, before the code names one).
     */
    public Uni<PasswordPassed> signIn(String page, String clientId, String login, String password,
            String clientAddress) {
        return directory.verifyPassword(new DirectoryClient.PasswordCheck(login, password, clientAddress,
                        securityLog.origin().userAgent()))
                .chain(person -> person.secondFactor()
                        ? pending.create(person.userId(), person.username()).map(value -> {
                            EVENTS.infof("event=password_passed page=%s client_id=%s person_id=%d second_factor=due", page,
                                    clientId, person.userId());
                            return new PasswordPassed(null, value, person.userId());
                        })
                        : sessions.create(person.userId(), person.username(), AuthenticationMethods.PASSWORD_ONLY, false)
                                .map(created -> {
                                    EVENTS.infof("event=login_succeeded page=%s client_id=%s person_id=%d", page,
                                            clientId, created.session().personId());
                                    return new PasswordPassed(created, null, person.userId());
                                }))
                .onFailure(DirectoryClient.PasswordRefused.class).transform(e -> {
                    EVENTS.infof("event=login_failed page=%s client_id=%s", page, clientId);
                    return new SignInRefused(false);
                })
                .onFailure(DirectoryClient.PasswordThrottled.class).transform(e -> new SignInRefused(true))
                .onFailure(SignIns::timedOut).transform(SignIns::unavailable);
    }

    /**
     * The directory did not answer within the client's read timeout: as when it cannot be reached
     * (the pages show their own "try again" message, not the API's problem document).
     */
    static boolean timedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
        }
        return false;
    }

    static Throwable unavailable(Throwable timeout) {
        return new org.ziggurat.platform.problem.DependencyUnavailable("directory-service did not answer in time", timeout);
    }

    /**
     * The second factor of a pending sign-in: a TOTP code or a recovery code, which the directory
     * checks (once, throttled). Each code is counted for the pending sign-in before it is checked;
     * its last wrong one ({@link PendingSignIns#CODES}) ends it. Fails with {@link PendingSignInGone},
     * {@link SignInRefused}, or the directory's own failure.
     */
    public Uni<SecondFactorPassed> secondFactor(String page, String clientId, String pendingValue, String code,
            String clientAddress) {
        String userAgent = securityLog.origin().userAgent();
        return pending.countCode(pendingValue).chain(counted -> {
            if (counted == null) {
                return Uni.createFrom().failure(new PendingSignInGone());
            }
            PendingSignIns.Pending found = counted.pending();
            return directory.verifySecondFactor(new DirectoryClient.SecondFactorCheck(found.personId(), code, clientAddress,
                    userAgent))
                    .onFailure(DirectoryClient.PasswordRefused.class).recoverWithUni(e -> {
                        EVENTS.infof("event=second_factor_failed page=%s client_id=%s person_id=%d", page, clientId,
                                found.personId());
                        if (!counted.last()) {
                            return Uni.createFrom().failure(new SignInRefused(false, found.personId()));
                        }
                        EVENTS.infof("event=pending_sign_in_ended reason=codes page=%s client_id=%s person_id=%d", page,
                                clientId, found.personId());
                        return pending.end(pendingValue).chain(() -> Uni.createFrom().failure(new PendingSignInGone()));
                    })
                    .onFailure(DirectoryClient.PasswordThrottled.class).transform(e -> new SignInRefused(true, found.personId()))
                    .onFailure(SignIns::timedOut).transform(SignIns::unavailable)
                    .chain(accepted -> finish(page, clientId, pendingValue, found, AuthenticationMethods.PASSWORD_AND_CODE,
                            accepted.method(), "recovery".equals(accepted.method()) ? accepted.recoveryCodesLeft() : -1));
        });
    }

    /** The second factor of a pending sign-in as a passkey: its assertion, of one of the person's credentials. */
    public Uni<SecondFactorPassed> secondFactorPasskey(String page, String clientId, String pendingValue, String assertion) {
        return pending.find(pendingValue).chain(found -> {
            if (found == null) {
                return Uni.createFrom().failure(new PendingSignInGone());
            }
            return passkeys.authenticate(assertion, PasskeyChallenges.Ceremony.SECOND_FACTOR, found.personId())
                    .onFailure(PasskeyVerifier.PasskeyRefused.class).transform(e -> {
                        EVENTS.infof("event=second_factor_failed method=passkey reason=\"%s\" page=%s client_id=%s person_id=%d",
                                e.getMessage(), page, clientId, found.personId());
                        return new SignInRefused(false, found.personId());
                    })
                    .chain(passed -> finish(page, clientId, pendingValue, found,
                            AuthenticationMethods.passwordAndPasskey(passed.synced()), "passkey", -1));
        });
    }

    /** Signs in with a passkey alone (a discoverable credential, user verification required). */
    public Uni<LoginSessions.Created> signInWithPasskey(String page, String clientId, String assertion) {
        return passkeys.authenticate(assertion, PasskeyChallenges.Ceremony.SIGN_IN, 0)
                .onFailure(PasskeyVerifier.PasskeyRefused.class).transform(e -> {
                    EVENTS.infof("event=login_failed method=passkey reason=\"%s\" page=%s client_id=%s", e.getMessage(), page,
                            clientId);
                    return new SignInRefused(false);
                })
                .chain(passed -> sessions.create(passed.personId(), passed.username(),
                        AuthenticationMethods.passkey(passed.synced()), true))
                .invoke(created -> EVENTS.infof("event=login_succeeded method=passkey page=%s client_id=%s person_id=%d",
                        page, clientId, created.session().personId()));
    }

    /** Ends the pending sign-in, once, and begins the session. */
    private Uni<SecondFactorPassed> finish(String page, String clientId, String pendingValue, PendingSignIns.Pending found,
            java.util.List<String> amr, String method, long recoveryCodesLeft) {
        return pending.end(pendingValue).chain(ended -> {
            if (!ended) {
                return Uni.createFrom().<SecondFactorPassed>failure(new PendingSignInGone());
            }
            return sessions.create(found.personId(), found.username(), AuthenticationMethods.after(found.firstAmr(), amr), true,
                            found.firstAssurance())
                    .map(created -> {
                        EVENTS.infof("event=login_succeeded page=%s client_id=%s person_id=%d second_factor=%s", page,
                                clientId, found.personId(), method);
                        return new SecondFactorPassed(created, recoveryCodesLeft);
                    });
        });
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
