package org.ziggurat.directory.identities;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.identities.IdentitySignUpRepository.PendingSignUp;
import org.ziggurat.directory.identities.LinkedIdentities.UpstreamIdentity;
import org.ziggurat.directory.mail.AccountMails;
import org.ziggurat.directory.people.EmailTokens;
import org.ziggurat.directory.people.PeopleRepository;
import org.ziggurat.directory.people.PersonRow;
import org.ziggurat.directory.people.ProfileRules;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

/**
 * New accounts made at a provider's sign-in: made at once only with the address the provider
 * verified, and with any other only once the link mailed to that address is used: until then
 * nothing exists, so an address nobody proved takes no account and links no identity.
 */
@ApplicationScoped
public class IdentitySignUps {

    /** Links to make an account that one address receives in an hour, at most (then 429). */
    static final int MAILS_PER_ADDRESS = 5;
    /** The log of linked identities, under the name operators know it by. */
    private static final Logger LOG = Logger.getLogger(LinkedIdentities.class);

    /** A new account made at a provider's sign-in: the username and name the person confirmed, and an address. */
    @RegisterForReflection
    public record NewAccount(String username, String displayName, String email, UpstreamIdentity identity) {
    }

    /** A new account's outcome: made (the person), or waiting for the mailed link (no person yet). */
    public record SignUp(PersonRow person, boolean confirmationMailed) {
    }

    private final Callers callers;
    private final IdentitySignUpRepository signUps;
    private final PeopleRepository people;
    private final AccountMails mails;

    IdentitySignUps(Callers callers, IdentitySignUpRepository signUps, PeopleRepository people, AccountMails mails) {
        this.callers = callers;
        this.signUps = signUps;
        this.people = people;
        this.mails = mails;
    }

    /**
     * A new account with the identity: made at once when the provider verified this very address;
     * else kept for 24 hours while a link goes to the address, and made only when it is used
     * ({@link #confirmSignUp}). 409 when the name, address or identity is taken, 429 past the
     * per-address mail limit.
     */
    public Uni<SignUp> signUp(NewAccount account) {
        if (account == null) {
            throw ProblemException.badRequest("A JSON body is required.");
        }
        LinkedIdentityRepository.Upstream upstream = IdentityRules.checked(account.identity());
        FieldChecks errors = new FieldChecks();
        ProfileRules.username(account.username(), errors);
        ProfileRules.email("email", account.email(), errors);
        ProfileRules.displayName(account.displayName(), errors);
        errors.throwIfFailed("The new account is not valid.");
        String email = account.email().strip();
        String displayName = account.displayName() == null ? account.username() : account.displayName().strip();
        // Made at once only with the address the provider verified; any other is proven before the account exists.
        boolean verified = upstream.emailVerified() && upstream.email() != null && upstream.email().equalsIgnoreCase(email);
        if (verified) {
            return authService().chain(service -> people.insert(
                            new PeopleRepository.NewPerson(account.username(), displayName, email, null), null,
                            (conn, row) -> LinkedIdentityRepository.insert(conn, row.id(), upstream)))
                    .invoke(row -> LOG.infof("person signed up through a provider: id=%d provider=%s", row.id(), upstream.provider()))
                    .map(row -> new SignUp(row, false));
        }
        PendingSignUp pending = new PendingSignUp(account.username(),
                displayName, email, upstream);
        return authService().chain(service -> signUps.taken(account.username(), email, upstream)).chain(taken -> {
            if (taken.name()) {
                return Uni.createFrom().failure(ProblemException.conflict("This name is taken."));
            }
            if (taken.identity()) {
                return Uni.createFrom().failure(ProblemException.conflict("This identity is linked to another account already."));
            }
            if (taken.address()) {
                // Answered as for a free address (a link went there): the answer tells nobody which
                // addresses have accounts. Its owner is told, and may link the provider from their account.
                var notice = mails.identitySignUpTaken(email, upstream.provider());
                return signUps.noticeTakenAddress(email, upstream, notice.subject(), notice.body(), MAILS_PER_ADDRESS)
                        .map(IdentitySignUps::mailedOrTooMany);
            }
            String token = EmailTokens.newToken();
            var mail = mails.identitySignUp(account.username(), email, upstream.provider(), token);
            return signUps.holdSignUp(EmailTokens.hash(token), pending, mail.subject(), mail.body(), MAILS_PER_ADDRESS)
                    .map(held -> {
                        LOG.infof("sign-up through a provider waits for its address: provider=%s", upstream.provider());
                        return mailedOrTooMany(held);
                    });
        });
    }

    private static SignUp mailedOrTooMany(boolean mailed) {
        if (!mailed) {
            throw new ProblemException(429, "Too Many Requests", "This address, or this identity at the provider, was sent "
                    + "as many links to make an account as it may in an hour. Try again later.");
        }
        return new SignUp(null, true);
    }

    /** auth-service, which alone signs people in through providers; 403 for any other caller. */
    private Uni<String> authService() {
        return callers.service().invoke(service -> {
            if (!"auth-service".equals(service)) {
                throw ProblemException.forbidden("Only auth-service makes accounts through providers.");
            }
        });
    }

    /** What a mailed link would make: the account's name and address, and the identity's provider and issuer. */
    @RegisterForReflection
    public record Pending(String username, String email, String provider, String issuer) {
    }

    /** What the link's token holds, to show before anything is made; 410 when the link is no good. */
    public Uni<Pending> pending(String token) {
        Uni<Pending> gone = Uni.createFrom().failure(() -> new ProblemException(410, "Link Gone",
                "This link was used already, has expired (links work for 24 hours), or is not one of ours."));
        if (!EmailTokens.wellFormed(token)) {
            return authService().chain(service -> gone);
        }
        return authService().chain(service -> signUps.pendingSignUp(EmailTokens.hash(token))).chain(p -> p == null ? gone
                : Uni.createFrom().item(new Pending(p.username(), p.email(), p.upstream().provider(), p.upstream().issuer())));
    }

    /**
     * The account a mailed link confirms, made now with its address confirmed and the identity
     * linked, in one transaction that uses the link: 410 when the link is no good (used, expired,
     * unknown), 409 when the name, address or identity was taken meanwhile.
     */
    public Uni<PersonRow> confirmSignUp(String token) {
        Uni<PersonRow> gone = Uni.createFrom().failure(() -> new ProblemException(410, "Link Gone",
                "This link was used already, has expired (links work for 24 hours), or is not one of ours. Sign in with "
                        + "the provider again to make the account."));
        if (!EmailTokens.wellFormed(token)) {
            return authService().chain(service -> gone);
        }
        byte[] hash = EmailTokens.hash(token);
        return authService().chain(service -> signUps.pendingSignUp(hash)).chain(pending -> pending == null ? gone
                : people.insert(new PeopleRepository.NewPerson(pending.username(), pending.displayName(), pending.email(), null),
                                null, (conn, row) -> IdentitySignUpRepository.useSignUp(conn, hash).chain(used -> used
                                        ? LinkedIdentityRepository.insert(conn, row.id(), pending.upstream())
                                        : Uni.createFrom().failure(new ProblemException(410, "Link Gone", "This link was used already."))))
                        .invoke(row -> LOG.infof("person signed up through a provider, address proven: id=%d provider=%s", row.id(),
                                pending.upstream().provider())));
    }
}
