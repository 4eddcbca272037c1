package org.ziggurat.directory.internal;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.factors.AccountEvents;
import org.ziggurat.directory.factors.SecondFactors;
import org.ziggurat.directory.securitylog.SecurityLog;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;


/**
 * Second factors for another service (auth-service's sign-in and account page): checking a code at
 * sign-in, throttled as passwords are (per account and address, per address, and an account under
 * attack slowed down), under a count of its own, and per account from every address too (whoever
 * sends codes passed the password); each code counted before it is checked; and enrolling and
 * removing factors.
 */
@ApplicationScoped
public class SecondFactorChecks {

    private static final Logger LOG = Logger.getLogger(SecondFactorChecks.class);

    /** The outcome that is not a refusal: how the code was accepted, or how many seconds to wait. */
    public record Outcome(InternalResource.AcceptedCode accepted, long retryAfter) {
    }

    private final Callers callers;
    private final SecondFactors factors;
    private final PersonLookups people;
    private final LoginThrottle throttle;

    private final SecurityLog log;
    private final org.ziggurat.directory.DirectoryConfig config;

    SecondFactorChecks(Callers callers, SecondFactors factors, PersonLookups people, LoginThrottle throttle, SecurityLog log,
            org.ziggurat.directory.DirectoryConfig config) {
        this.log = log;
        this.config = config;
        this.callers = callers;
        this.factors = factors;
        this.people = people;
        this.throttle = throttle;
    }

    /** The throttle's account key: a count apart from the password's, for the same person. */
    static String accountKey(long personId) {
        return "second-factor:person:" + personId;
    }

    /**
     * Checks a TOTP or recovery code of a person who passed the password: 401 when it is not
     * right (or the person has no second factor), the throttle's wait when it refuses.
     */
    public Uni<Outcome> verify(InternalResource.SecondFactorCheck check) {
        if (check == null || check.personId() <= 0 || check.code() == null || check.code().length() > 30) {
            throw ProblemException.invalidField("code", "person_id and code are required");
        }
        return callers.service().chain(service -> verify(service, check));
    }

    /** {@code service}: who asks, for the log. */
    Uni<Outcome> verify(String service, InternalResource.SecondFactorCheck check) {
        String address = address(check.clientAddress());
        String account = accountKey(check.personId());
        // A failure is logged within the check, which runs to its end even when its caller goes away:
        // on the way to the answer, a guesser that closed each connection at once left no entry.
        return throttle.guard(account, address, config.secondFactorThrottle(),
                        () -> factors.accept(check.personId(), check.code(), address).map(java.util.Optional::ofNullable)
                                .invoke(accepted -> {
                                    if (accepted.isEmpty()) {
                                        LOG.infof("second factor check failed: service=%s address=%s", service, address);
                                        log.recordLater(check.personId(), new SecurityLog.Entry(
                                                AccountEvents.SECOND_FACTOR_FAILED, address, check.userAgent(), null));
                                    }
                                }),
                        java.util.Optional::isPresent)
                .map(guarded -> {
                    if (guarded.result() == null) {
                        LOG.infof("second factor check throttled: service=%s address=%s", service, address);
                        return new Outcome(null, guarded.retryAfter());
                    }
                    var accepted = guarded.result().orElseThrow(() -> ProblemException.unauthorized("The code is not valid."));
                    return new Outcome(new InternalResource.AcceptedCode(accepted.method(), accepted.recoveryCodesLeft()), 0);
                });
    }

    public Uni<SecondFactors.FactorStatus> status(long personId) {
        return callers.service().chain(service -> factors.status(personId));
    }

    /** 404 for an unknown person, 409 when a confirmed key exists. */
    public Uni<SecondFactors.TotpEnrolment> startTotp(long personId) {
        return people.person(personId).chain(person -> factors.startTotp(personId));
    }

    public Uni<SecondFactors.RecoveryCodes> confirmTotp(long personId, InternalResource.SecondFactorCheck check) {
        if (check == null || check.code() == null) {
            throw ProblemException.invalidField("code", "is required");
        }
        return callers.service().chain(service -> factors.confirmTotp(personId, check.code(), address(check.clientAddress())));
    }

    public Uni<Void> removeTotp(long personId, String clientAddress) {
        return callers.service().chain(service -> factors.removeTotp(personId, address(clientAddress)));
    }

    public Uni<SecondFactors.RecoveryCodes> regenerateRecoveryCodes(long personId, String clientAddress) {
        return callers.service().chain(service -> factors.regenerateRecoveryCodes(personId, address(clientAddress)));
    }

    /** 404 for an unknown person; 409 when the credential is registered already. */
    public Uni<SecondFactors.RecoveryCodes> addPasskey(long personId, SecondFactors.PasskeyRegistration registration) {
        if (registration == null) {
            throw ProblemException.invalidField("credential_id", "is required");
        }
        return people.person(personId).chain(person -> factors.addPasskey(personId, new SecondFactors.PasskeyRegistration(
                registration.credentialId(), registration.publicKey(), registration.signCount(), registration.uvInitialized(),
                registration.backupEligible(), registration.transports(), registration.name(),
                address(registration.clientAddress()))));
    }

    public Uni<SecondFactors.PasskeyCredential> passkey(String credentialId) {
        return callers.service().chain(service -> factors.passkey(credentialId,
                personId -> people.person(personId).map(person -> person.username())));
    }

    public Uni<Void> usePasskey(String credentialId, long signCount) {
        return callers.service().chain(service -> factors.usePasskey(credentialId, signCount));
    }

    public Uni<Void> removePasskey(long personId, long passkeyId, String clientAddress) {
        return callers.service().chain(service -> factors.removePasskey(personId, passkeyId, address(clientAddress)));
    }

    private static String address(String clientAddress) {
        return PasswordChecks.address(clientAddress);
    }
}
