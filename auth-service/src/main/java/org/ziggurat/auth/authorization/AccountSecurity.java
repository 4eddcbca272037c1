package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.auth.passkeys.PasskeyChallenges;
import org.ziggurat.auth.passkeys.PasskeyVerifier;
import org.ziggurat.auth.passkeys.Passkeys;
import org.ziggurat.auth.tokens.GrantRepository;
import org.ziggurat.directory.client.DirectoryClient;

import java.util.List;

/**
 * What a signed-in person does on the account page's security section: enrol a TOTP
 * authenticator, remove it, make new recovery codes. The directory keeps the factors; a removal
 * or new codes need the password again ("sudo mode"), checked and throttled as any sign-in. The
 * directory records each change as an account event.
 */
@ApplicationScoped
public class AccountSecurity {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    /** The password given again was not right (or the account or address is throttled: {@code throttled}). */
    public static final class SudoRefused extends RuntimeException {

        private final boolean throttled;

        SudoRefused(boolean throttled) {
            super("password not confirmed", null, false, false);
            this.throttled = throttled;
        }

        public boolean throttled() {
            return throttled;
        }
    }

    private final DirectoryClient directory;
    private final Passkeys passkeys;
    private final LoginSessions sessions;
    private final GrantRepository grants;

    private final SecurityLogEntries securityLog;
    private final org.ziggurat.auth.tokens.SignOutRepository signOuts;

    AccountSecurity(@RestClient DirectoryClient directory, Passkeys passkeys, LoginSessions sessions, GrantRepository grants,
            SecurityLogEntries securityLog, org.ziggurat.auth.tokens.SignOutRepository signOuts) {
        this.securityLog = securityLog;
        this.signOuts = signOuts;
        this.directory = directory;
        this.passkeys = passkeys;
        this.sessions = sessions;
        this.grants = grants;
    }

    /** An application the person gave access: the grant's id, its name and scopes, since when, its last token. */
    public record Application(long grant, String name, List<String> scopes, java.time.Instant since,
            java.time.Instant lastUsed) {
    }

    /** The applications the session's person gave access, with what and since when. */
    public Uni<List<Application>> applications(LoginSessions.Session session) {
        return grants.grants(session.personId()).map(rows -> rows.stream().map(g -> new Application(g.id(), g.appName(),
                g.scopes(), g.createdAt(), g.lastUsedAt())).toList());
    }

    /**
     * Takes an application's access away: every token the person's grant gave it is revoked (on
     * every replica at commit; the gateway refuses it once its cache of the token's answer ends),
     * and the consent is forgotten. Nothing when the grant is not the person's.
     */
    public Uni<Void> revokeApplication(LoginSessions.Session session, long grantId) {
        SecurityLogEntries.Origin origin = securityLog.origin();
        return grants.grant(session.personId(), grantId).chain(grant -> grant == null ? Uni.createFrom().voidItem()
                : grants.revokeGrant(session.personId(), grant).invoke(count -> EVENTS.infof(
                        "event=grant_revoked page=account client_id=%s person_id=%d revoked_tokens=%d", grant.clientId(),
                        session.personId(), count))
                        .chain(() -> securityLog.applicationRevoked(session.personId(), grant.appName(), origin)));
    }

    /**
     * Adds a passkey the browser just made: the recovery codes when it is the person's first
     * factor (else none). {@link PasskeyVerifier.PasskeyRefused} when the registration does not
     * pass, {@link DirectoryClient.Conflict} when it is registered already.
     */
    public Uni<List<String>> addPasskey(LoginSessions.Session session, String registration, String name,
            Confirmation confirmation, String clientAddress) {
        return recentOrSudo(session, confirmation, clientAddress)
                .chain(() -> passkeys.register(session.personId(), registration, name, clientAddress))
                .call(() -> sessions.secondFactorAdded(session))
                .call(codes -> codes.isEmpty() ? Uni.createFrom().voidItem() : singleFactorSignInsEnded(session));
    }

    /** Removes a passkey after the password: {@link SudoRefused}, or {@link DirectoryClient.NotFound}. */
    public Uni<Void> removePasskey(LoginSessions.Session session, long passkeyId, Confirmation confirmation,
            String clientAddress) {
        return sudo(session, confirmation, clientAddress)
                .chain(() -> directory.removePasskey(session.personId(), passkeyId, clientAddress))
                .invoke(() -> EVENTS.infof("event=second_factor_removed method=passkey person_id=%d", session.personId()))
                .replaceWithVoid();
    }

    public Uni<DirectoryClient.FactorStatus> status(LoginSessions.Session session) {
        return directory.factors(session.personId());
    }

    /**
     * A new key to enrol, after a recent sign-in or the password ({@link SudoRefused});
     * {@link DirectoryClient.Conflict} when one is set up already.
     */
    public Uni<DirectoryClient.TotpEnrolment> startTotp(LoginSessions.Session session, Confirmation confirmation,
            String clientAddress) {
        return recentOrSudo(session, confirmation, clientAddress).chain(() -> directory.startTotp(session.personId()));
    }

    /**
     * The enrolment's first code: the recovery codes, shown once. {@link DirectoryClient.Invalid}
     * for a wrong code, {@link DirectoryClient.Conflict} when nothing is being enrolled.
     */
    public Uni<List<String>> confirmTotp(LoginSessions.Session session, String code, String clientAddress) {
        return directory.confirmTotp(session.personId(), new DirectoryClient.SecondFactorCheck(session.personId(), code,
                        clientAddress))
                .invoke(() -> EVENTS.infof("event=second_factor_enabled method=totp person_id=%d", session.personId()))
                .call(() -> sessions.secondFactorAdded(session))
                .call(() -> singleFactorSignInsEnded(session))
                .map(DirectoryClient.RecoveryCodes::recoveryCodes);
    }

    /** Removes the TOTP authenticator after the password: {@link SudoRefused}, or {@link DirectoryClient.NotFound}. */
    public Uni<Void> removeTotp(LoginSessions.Session session, Confirmation confirmation, String clientAddress) {
        return sudo(session, confirmation, clientAddress)
                .chain(() -> directory.removeTotp(session.personId(), clientAddress))
                .invoke(() -> EVENTS.infof("event=second_factor_removed method=totp person_id=%d", session.personId()))
                .replaceWithVoid();
    }

    /** New recovery codes after the password: {@link SudoRefused}, or {@link DirectoryClient.Conflict} without a factor. */
    public Uni<List<String>> regenerateRecoveryCodes(LoginSessions.Session session, Confirmation confirmation,
            String clientAddress) {
        return sudo(session, confirmation, clientAddress)
                .chain(() -> directory.regenerateRecoveryCodes(session.personId(), clientAddress))
                .invoke(() -> EVENTS.infof("event=recovery_codes_regenerated person_id=%d", session.personId()))
                .map(DirectoryClient.RecoveryCodes::recoveryCodes);
    }

    /**
     * A new password, after the current one ({@link SudoRefused} when it is not right): the
     * directory sets it (its {@code Invalid} when the rules refuse it), records and mails the
     * change; then every other session of the person ends, with the tokens bound to them.
     */
    public Uni<Void> changePassword(LoginSessions.Session session, String current, String password, String clientAddress) {
        return sudo(session, new Confirmation(current, null), clientAddress)
                .chain(() -> directory.changePassword(session.personId(), new DirectoryClient.NewPassword(password, clientAddress)))
                // Every other sign-in ends, pending ones (a password given, a code not yet) included.
                .chain(() -> signOuts.signOutOthersKeepingApplications(session.personId(), session.hash(), false))
                .invoke(revoked -> EVENTS.infof("event=password_changed person_id=%d tokens_revoked=%d", session.personId(),
                        revoked))
                .replaceWithVoid();
    }

    /**
     * A second factor came: the person's other sign-ins that did not use one end, with the tokens
     * bound to them (none of them would be made now without the factor).
     */
    private Uni<Void> singleFactorSignInsEnded(LoginSessions.Session session) {
        return signOuts.signOutOthersKeepingApplications(session.personId(), session.hash(), true)
                .invoke(revoked -> EVENTS.infof("event=single_factor_sign_ins_ended person_id=%d tokens_revoked=%d",
                        session.personId(), revoked))
                .replaceWithVoid();
    }

    /** Who the person is, again: their password, or the assertion of one of their passkeys (null when not given). */
    public record Confirmation(String password, String passkeyAssertion) {
    }

    /**
     * Before a way into the account is added (or a protection turned off): nothing more within a
     * few minutes of the session's sign-in ({@link LoginSessions.Session#recent}), else {@link #sudo}. A
     * confirmation given is checked either way. A stolen session cookie alone adds no factor.
     */
    public Uni<Void> recentOrSudo(LoginSessions.Session session, Confirmation confirmation, String clientAddress) {
        boolean given = confirmation != null && (confirmation.password() != null && !confirmation.password().isEmpty()
                || confirmation.passkeyAssertion() != null && !confirmation.passkeyAssertion().isBlank());
        if (!given && session.recent()) {
            return Uni.createFrom().voidItem();
        }
        if (!given) {
            EVENTS.infof("event=sudo_needed person_id=%d", session.personId());
        }
        return sudo(session, confirmation == null ? new Confirmation(null, null) : confirmation, clientAddress);
    }

    /**
     * The session's person confirms who they are again: the password (the directory checks it,
     * for this account only, throttled), or one of their passkeys with user verification.
     */
    Uni<Void> sudo(LoginSessions.Session session, Confirmation confirmation, String clientAddress) {
        if (confirmation.passkeyAssertion() != null && !confirmation.passkeyAssertion().isBlank()) {
            return passkeys.authenticate(confirmation.passkeyAssertion(), PasskeyChallenges.Ceremony.SUDO, session.personId())
                    .onFailure(PasskeyVerifier.PasskeyRefused.class).transform(e -> {
                        EVENTS.infof("event=sudo_failed method=passkey reason=\"%s\" person_id=%d", e.getMessage(),
                                session.personId());
                        return new SudoRefused(false);
                    })
                    .replaceWithVoid();
        }
        String password = confirmation.password();
        if (password == null || password.isEmpty()) {
            return Uni.createFrom().failure(new SudoRefused(false));
        }
        return directory.verifyPassword(new DirectoryClient.PasswordCheck(session.username(), password, clientAddress))
                .onFailure(DirectoryClient.PasswordRefused.class).transform(e -> {
                    EVENTS.infof("event=sudo_failed person_id=%d", session.personId());
                    return new SudoRefused(false);
                })
                .onFailure(DirectoryClient.PasswordThrottled.class).transform(e -> new SudoRefused(true))
                .onFailure(SignIns::timedOut).transform(SignIns::unavailable)
                .invoke(person -> {
                    if (person.userId() != session.personId()) {
                        // The username now names someone else (renamed meanwhile): not this person's password.
                        throw new SudoRefused(false);
                    }
                })
                .replaceWithVoid();
    }
}
