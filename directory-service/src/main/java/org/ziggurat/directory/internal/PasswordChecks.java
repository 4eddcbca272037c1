package org.ziggurat.directory.internal;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.RetryLater;
import org.ziggurat.directory.factors.AccountEvents;
import org.ziggurat.directory.security.Hashing;
import org.ziggurat.directory.securitylog.SecurityLog;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

import java.util.regex.Pattern;

/**
 * Checking a password for another service (auth-service's sign-in and password grant): throttled
 * per account and per client address, and the same answer, after the same work, whether or not
 * the account exists.
 */
@ApplicationScoped
public class PasswordChecks {

    private static final Pattern ADDRESS = Pattern.compile("[0-9A-Fa-f:.]{2,45}");
    private static final Logger LOG = Logger.getLogger(PasswordChecks.class);

    /** The outcome that is not a refusal: the person, or how many seconds the caller must wait. */
    public record Outcome(InternalResource.VerifiedPerson person, long retryAfter) {
    }

    private final Callers callers;
    private final InternalRepository repository;
    private final LoginThrottle throttle;
    private final Hashing hashing;
    private final SecurityLog log;

    PasswordChecks(Callers callers, InternalRepository repository, LoginThrottle throttle, Hashing hashing, SecurityLog log) {
        this.log = log;
        this.callers = callers;
        this.repository = repository;
        this.throttle = throttle;
        this.hashing = hashing;
    }

    /** The client's address as the caller gave it, when it looks like one (the throttle's key); else null. */
    static String address(String clientAddress) {
        return clientAddress != null && ADDRESS.matcher(clientAddress).matches() ? clientAddress : null;
    }

    /** For another service only (auth-service signs people in). A wrong password fails with 401. */
    public Uni<Outcome> verify(InternalResource.PasswordCheck check) {
        return callers.service().chain(service -> verify(service, check));
    }

    /**
     * The person's own password given again through the API (the caller's rights checked before):
     * 401 when it is not theirs, 429 with Retry-After when the throttle refuses (as any sign-in,
     * counted the same), 403 when the account has no password (made through another provider: the
     * account page confirms such a change by a recent sign-in instead).
     */
    public Uni<Void> confirm(String username, long personId, String password) {
        return repository.credential(username).chain(credential -> {
            if (credential != null && credential.id() == personId && credential.passwordHash() == null) {
                return Uni.createFrom().failure(ProblemException.forbidden("This account has no password (it signs in "
                        + "through another provider), so the API cannot confirm this with one: do it on the account page."));
            }
            return check("api", new InternalResource.PasswordCheck(username, password == null ? "" : password, null),
                    username, credential);
        }).map(outcome -> {
            if (outcome.person() == null) {
                throw new RetryLater("Too many attempts. Try again in " + outcome.retryAfter() + " seconds.",
                        outcome.retryAfter());
            }
            if (outcome.person().userId() != personId) {
                throw ProblemException.unauthorized("The password is not right.");
            }
            return null;
        }).replaceWithVoid();
    }

    /** {@code service}: who asks, for the log. */
    Uni<Outcome> verify(String service, InternalResource.PasswordCheck check) {
        if (check == null || check.login() == null || check.login().isBlank() || check.login().length() > 254
                || check.password() == null) {
            throw ProblemException.invalidField("login", "login and password are required");
        }
        String login = check.login().strip();
        return repository.credential(login).chain(credential -> check(service, check, login, credential));
    }

    /** The check of {@code login}'s password, under the throttle; {@code credential}: the account it names, or null. */
    private Uni<Outcome> check(String service, InternalResource.PasswordCheck check, String login,
            InternalRepository.Credential credential) {
        String address = address(check.clientAddress());
        String account = LoginThrottle.accountKey(credential == null ? null : credential.id(), login);
        // A failure is logged within the check, which runs to its end even when its caller goes away:
        // on the way to the answer, a guesser that closed each connection at once left no entry.
        return throttle.guard(account, address,
                () -> hashing.verify(check.password(), credential == null ? null : credential.passwordHash()).invoke(ok -> {
                    if (!ok) {
                        LOG.infof("password check failed: service=%s address=%s", service, address);
                        if (credential != null) {
                            log.recordLater(credential.id(), new SecurityLog.Entry(AccountEvents.SIGN_IN_FAILED, address,
                                    check.userAgent(), null));
                        }
                    }
                }), ok -> ok)
                .map(guarded -> {
                    if (guarded.result() == null) {
                        LOG.infof("password check throttled: service=%s address=%s", service, address);
                        return new Outcome(null, guarded.retryAfter());
                    }
                    if (!guarded.result()) {
                        throw ProblemException.unauthorized("The login or password is not valid.");
                    }
                    return new Outcome(new InternalResource.VerifiedPerson(credential.id(), credential.username(),
                            credential.secondFactor()), 0);
                });
    }
}
