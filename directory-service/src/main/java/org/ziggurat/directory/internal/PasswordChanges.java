package org.ziggurat.directory.internal;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.DirectoryConfig;
import org.ziggurat.directory.factors.AccountEvents;
import org.ziggurat.directory.mail.AccountMails;
import org.ziggurat.directory.mail.SecurityNotices;
import org.ziggurat.directory.people.EmailTokens;
import org.ziggurat.directory.people.PasswordRepository;
import org.ziggurat.directory.people.PeopleRepository;
import org.ziggurat.directory.people.ProfileRules;
import org.ziggurat.directory.security.Hashing;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;


/**
 * Setting a person's password: "Forgot your password?", for auth-service's pages, and a change
 * on the account page. Asking mails a link to the account's
 * address when the username or address names one, and answers the same either way (nothing
 * tells who has an account); asks are limited per client address (429) and, silently, per
 * account. Setting the new password with the link's token uses it and every other link of the
 * person, records and mails the change, in one transaction; auth-service then signs the person
 * out everywhere.
 */
@ApplicationScoped
public class PasswordChanges {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.directory.security");

    private final Callers callers;
    private final PasswordRepository passwords;
    private final LoginThrottle throttle;
    private final AccountMails mails;
    private final SecurityNotices notices;
    private final Hashing hashing;
    /** Asks from one address, and links to one account, within the window. */
    private final DirectoryConfig.RecoveryAsks limits;

    PasswordChanges(Callers callers, PasswordRepository passwords, LoginThrottle throttle, AccountMails mails,
            SecurityNotices notices, Hashing hashing, DirectoryConfig config) {
        this.limits = config.recoveryAsks();
        this.callers = callers;
        this.passwords = passwords;
        this.throttle = throttle;
        this.mails = mails;
        this.notices = notices;
        this.hashing = hashing;
    }

    /** Seconds to wait when the address asked too often; else 0, whether or not a mail went out. */
    public Uni<Long> ask(String login, String clientAddress) {
        String address = clientAddress == null || clientAddress.isBlank() ? "-" : clientAddress;
        // Counted by the address's group (an IPv6 address by its /64), as the sign-in throttle counts.
        return callers.service().chain(service -> throttle.admit("recovery-address:" + LoginRules.addressGroup(address),
                        limits.perAddress(), limits.window()))
                .chain(wait -> wait > 0 || login == null || login.isBlank() || login.length() > 320
                        ? Uni.createFrom().item(wait)
                        : passwords.recoverable(login.strip()).chain(person -> person == null ? Uni.createFrom().item(0L)
                                : throttle.admit("recovery-account:" + person.id(), limits.perAccount(), limits.window())
                                        .chain(over -> over > 0 ? Uni.createFrom().item(0L) : send(person, address))));
    }

    private Uni<Long> send(PeopleRepository.Recoverable person, String address) {
        String token = EmailTokens.newToken();
        SecurityNotices.Notice mail = mails.recovery(person.username(), address, token);
        return passwords.insertRecovery(person, EmailTokens.hash(token), address, mail.subject(), mail.body())
                .invoke(() -> EVENTS.infof("event=password_recovery_mailed person_id=%d address=%s", person.id(), address))
                .replaceWith(0L);
    }

    /** The person whose password the token set; 422 for a password the rules refuse, 410 for a token that is no good. */
    public Uni<PeopleRepository.Recoverable> reset(String token, String password, String clientAddress) {
        return callers.service().chain(service -> {
            FieldChecks errors = new FieldChecks();
            ProfileRules.password(password, errors);
            if (errors.failed()) {
                return Uni.createFrom().failure(ProblemException.invalid("The new password is not valid.", errors.errors()));
            }
            if (!EmailTokens.wellFormed(token)) {
                return Uni.createFrom().failure(linkGone());
            }
            byte[] tokenHash = EmailTokens.hash(token);
            // The link first, the hash after: a made-up token must cost no Argon2id work (anyone can post the form).
            return passwords.recoveryLive(tokenHash).chain(live -> !live ? Uni.createFrom().<PeopleRepository.Recoverable>nullItem()
                            : hashing.hash(password).chain(hash -> passwords.resetPassword(tokenHash, hash, clientAddress,
                                    person -> notice(AccountEvents.PASSWORD_RESET, person, clientAddress),
                                    (person, removed) -> notice(AccountEvents.UNPROVEN_ACCESS_REMOVED, person, clientAddress,
                                            removed))))
                    .onItem().ifNull().failWith(PasswordChanges::linkGone)
                    .invoke(person -> EVENTS.infof("event=password_reset person_id=%d address=%s", person.id(), clientAddress));
        });
    }

    /**
     * A new password the person chose on their account page (auth-service checked the current
     * one first): 422 for a password the rules refuse, 404 when there is no such person.
     */
    public Uni<PeopleRepository.Recoverable> change(long personId, String password, String clientAddress) {
        return callers.service().chain(service -> {
            FieldChecks errors = new FieldChecks();
            ProfileRules.password(password, errors);
            if (errors.failed()) {
                return Uni.createFrom().failure(ProblemException.invalid("The new password is not valid.", errors.errors()));
            }
            return hashing.hash(password).chain(hash -> passwords.changePassword(personId, hash, clientAddress,
                            person -> notice(AccountEvents.PASSWORD_CHANGED, person, clientAddress)))
                    .onItem().ifNull().failWith(() -> ProblemException.notFound("No such person."))
                    .invoke(person -> EVENTS.infof("event=password_changed person_id=%d address=%s", person.id(), clientAddress));
        });
    }

    /**
     * A new password the person set through the API, after the current one (their rights checked
     * before): with no sign-in of auth-service's to keep, every one of theirs ends there, by a
     * sign-out owed in the same transaction ({@code signOut}). 422 for a password the rules refuse.
     */
    public Uni<PeopleRepository.Recoverable> changeSigningOut(long personId, String password,
            java.util.function.BiFunction<io.vertx.mutiny.sqlclient.SqlConnection, PeopleRepository.Recoverable, Uni<Void>> signOut) {
        FieldChecks errors = new FieldChecks();
        ProfileRules.password(password, errors);
        if (errors.failed()) {
            return Uni.createFrom().failure(ProblemException.invalid("The new password is not valid.", errors.errors()));
        }
        return hashing.hash(password).chain(hash -> passwords.changePassword(personId, hash, null,
                        person -> notice(AccountEvents.PASSWORD_CHANGED, person, null), signOut))
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No such person."))
                .invoke(person -> EVENTS.infof("event=password_changed person_id=%d via=api", person.id()));
    }

    private PeopleRepository.Notice notice(String kind, PeopleRepository.Recoverable person, String clientAddress) {
        return notice(kind, person, clientAddress, null);
    }

    private PeopleRepository.Notice notice(String kind, PeopleRepository.Recoverable person, String clientAddress, String detail) {
        SecurityNotices.Notice n = notices.notice(kind, person.username(), clientAddress, detail);
        return new PeopleRepository.Notice(kind, n.subject(), n.body());
    }

    private static ProblemException linkGone() {
        return new ProblemException(410, "Link Gone", "This link was used already, has expired (links work for 30 minutes), "
                + "or is not one of ours. Ask for a new one.");
    }
}
