package org.ziggurat.directory.identities;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.directory.mail.AccountMails;
import org.ziggurat.directory.people.EmailTokens;
import org.ziggurat.directory.people.PeopleRepository;
import org.ziggurat.directory.people.PersonRow;
import org.ziggurat.directory.people.ProfileRules;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.Callers;
import org.ziggurat.platform.token.ScopeNames;

import java.time.Instant;
import java.util.List;

/**
 * Identities of other providers that people sign in with. The rule that guards accounts: an
 * identity joins an account only when auth-service has the account's owner signed in (the
 * account page, or the sign-in that follows the provider's), never because an address matches;
 * a new account made with one is made at once only with the address the provider verified, and
 * with any other only once the link mailed to that address is used: until then nothing exists,
 * so an address nobody proved takes no account and links no identity. Each may be removed, but
 * not the last way a person has to sign in.
 */
@ApplicationScoped
public class LinkedIdentities {

    public static final int MOST_PER_PERSON = 20;
    /** Links to make an account that one address receives in an hour, at most (then 429). */
    static final int MAILS_PER_ADDRESS = 5;
    private static final Logger LOG = Logger.getLogger(LinkedIdentities.class);

    /**
     * What auth-service learned from a provider: the identity, what the provider said of the person,
     * and the issuer that vouched (null from a caller that does not say: links from before).
     */
    @RegisterForReflection
    public record UpstreamIdentity(String provider, String subject, String displayName, String email, Boolean emailVerified,
            List<String> assurance, String orcid, String issuer) {

        public UpstreamIdentity(String provider, String subject, String displayName, String email, Boolean emailVerified,
                List<String> assurance, String orcid) {
            this(provider, subject, displayName, email, emailVerified, assurance, orcid, null);
        }
    }

    /** A new account made at a provider's sign-in: the username and name the person confirmed, and an address. */
    @RegisterForReflection
    public record NewAccount(String username, String displayName, String email, UpstreamIdentity identity) {
    }

    @RegisterForReflection
    public record IdentityView(long id, String provider, String subject, String displayName, String email,
            boolean emailVerified, List<String> assurance, String orcid, Instant createdAt, Instant lastUsedAt) {

        static IdentityView of(LinkedIdentity link) {
            return new IdentityView(link.id, link.provider, link.subject, link.displayName, link.email, link.emailVerified,
                    values(link.assurance), link.orcid, link.createdAt.toInstant(),
                    link.lastUsedAt == null ? null : link.lastUsedAt.toInstant());
        }
    }

    /**
     * The research claims of a person that their links contribute: the ORCID iD. (A provider's
     * assurance is not re-asserted from here: auth-service passes on what the sign-in itself said.)
     */
    public record Research(String orcid, List<String> assurance) {
    }

    /** A new account's outcome: made (the person), or waiting for the mailed link (no person yet). */
    public record SignUp(PersonRow person, boolean confirmationMailed) {
    }

    private final Callers callers;
    private final LinkedIdentityRepository repository;
    private final PeopleRepository people;
    private final AccountMails mails;

    LinkedIdentities(Callers callers, LinkedIdentityRepository repository, PeopleRepository people, AccountMails mails) {
        this.callers = callers;
        this.repository = repository;
        this.people = people;
        this.mails = mails;
    }

    /** The person an identity signs in; 404 when it is linked to no one. */
    public Uni<LinkedIdentityRepository.Holder> signIn(UpstreamIdentity identity) {
        LinkedIdentityRepository.Upstream upstream = IdentityRules.checked(identity);
        return callers.service().chain(service -> repository.signIn(upstream))
                .onItem().ifNull().failWith(() -> ProblemException.notFound("This identity is linked to no account."));
    }

    /**
     * Links an identity to a person who auth-service has signed in: true when new, false when it was
     * theirs already; 409 when it is someone else's, 422 past {@link #MOST_PER_PERSON}.
     */
    public Uni<Boolean> link(long personId, UpstreamIdentity identity, String address) {
        LinkedIdentityRepository.Upstream upstream = IdentityRules.checked(identity);
        return callers.service().chain(service -> repository.link(personId, upstream, address)).map(outcome -> switch (outcome) {
            case LINKED -> {
                LOG.infof("identity linked: person_id=%d provider=%s", personId, upstream.provider());
                yield true;
            }
            case ALREADY_YOURS -> false;
            case SOMEONE_ELSES -> throw ProblemException.conflict("This identity is linked to another account.");
            case TOO_MANY -> throw ProblemException.invalidField("identity", "an account links at most " + MOST_PER_PERSON
                    + " identities");
            case NO_PERSON -> throw ProblemException.notFound("No such person.");
        });
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
            return callers.service().chain(service -> people.insert(
                            new PeopleRepository.NewPerson(account.username(), displayName, email, null), null,
                            (conn, row) -> LinkedIdentityRepository.insert(conn, row.id(), upstream)))
                    .invoke(row -> LOG.infof("person signed up through a provider: id=%d provider=%s", row.id(), upstream.provider()))
                    .map(row -> new SignUp(row, false));
        }
        LinkedIdentityRepository.PendingSignUp pending = new LinkedIdentityRepository.PendingSignUp(account.username(),
                displayName, email, upstream);
        return callers.service().chain(service -> repository.taken(account.username(), email, upstream)).chain(taken -> {
            if (taken.name()) {
                return Uni.createFrom().failure(ProblemException.conflict("This name is taken."));
            }
            if (taken.address()) {
                return Uni.createFrom().failure(ProblemException.conflict("An account with this email address exists already."));
            }
            if (taken.identity()) {
                return Uni.createFrom().failure(ProblemException.conflict("This identity is linked to another account already."));
            }
            String token = EmailTokens.newToken();
            var mail = mails.identitySignUp(account.username(), email, upstream.provider(), upstream.displayName(), token);
            return repository.holdSignUp(EmailTokens.hash(token), pending, mail.subject(), mail.body(), MAILS_PER_ADDRESS)
                    .map(held -> {
                        if (!held) {
                            throw new ProblemException(429, "Too Many Requests", "This address received as many links to "
                                    + "make an account as it may in an hour. Try again later.");
                        }
                        LOG.infof("sign-up through a provider waits for its address: provider=%s", upstream.provider());
                        return new SignUp(null, true);
                    });
        });
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
            return callers.service().chain(service -> gone);
        }
        byte[] hash = EmailTokens.hash(token);
        return callers.service().chain(service -> repository.pendingSignUp(hash)).chain(pending -> pending == null ? gone
                : people.insert(new PeopleRepository.NewPerson(pending.username(), pending.displayName(), pending.email(), null),
                                null, (conn, row) -> LinkedIdentityRepository.useSignUp(conn, hash).chain(used -> used
                                        ? LinkedIdentityRepository.insert(conn, row.id(), pending.upstream())
                                        : Uni.createFrom().failure(new ProblemException(410, "Link Gone", "This link was used already."))))
                        .invoke(row -> LOG.infof("person signed up through a provider, address proven: id=%d provider=%s", row.id(),
                                pending.upstream().provider())));
    }

    public Uni<List<IdentityView>> list(long personId) {
        return callers.service().chain(service -> views(personId));
    }

    /** 404 when the person has no such link, 409 when it is their last way to sign in. */
    public Uni<Void> unlink(long personId, long linkId, String address) {
        return callers.service().chain(service -> unlinkChecked(personId, linkId, address));
    }

    /** The authenticated person's links (the account scope). */
    public Uni<List<IdentityView>> own(Caller caller) {
        return views(caller.requireUserWithScope(ScopeNames.ACCOUNT));
    }

    public Uni<Void> unlinkOwn(Caller caller, long linkId) {
        return unlinkChecked(caller.requireUserWithScope(ScopeNames.ACCOUNT), linkId, null);
    }

    /** Whether the person's own second factor is asked for after a provider's sign-in; 404 for no such person. */
    public Uni<Boolean> secondFactorAfterUpstream(long personId) {
        return callers.service().chain(service -> repository.secondFactorAfterUpstream(personId))
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No such person."));
    }

    public Uni<Void> setSecondFactorAfterUpstream(long personId, Boolean required, String address) {
        if (required == null) {
            throw ProblemException.invalidField("second_factor_after_upstream", FieldChecks.BOOLEAN);
        }
        return callers.service().chain(service -> repository.setSecondFactorAfterUpstream(personId, required, address))
                .map(found -> {
                    if (!found) {
                        throw ProblemException.notFound("No such person.");
                    }
                    return null;
                });
    }

    /**
     * The ORCID iD (the latest linked that carries one: each is one person's), and no assurance:
     * what a provider asserted at a sign-in long past is not re-asserted in the platform's name
     * (auth-service releases only what the sign-in behind a token asserted, as its operator allows).
     */
    public Uni<Research> research(long personId) {
        return repository.of(personId).map(links -> {
            String orcid = null;
            for (LinkedIdentity link : links) {
                if (link.orcid != null) {
                    orcid = link.orcid;
                }
            }
            return new Research(orcid, List.of());
        });
    }

    private Uni<List<IdentityView>> views(long personId) {
        return repository.of(personId).map(links -> links.stream().map(IdentityView::of).toList());
    }

    private Uni<Void> unlinkChecked(long personId, long linkId, String address) {
        return repository.unlink(personId, linkId, address).map(outcome -> switch (outcome) {
            case UNLINKED -> null;
            case NOT_FOUND -> throw ProblemException.notFound("No such linked identity.");
            case LAST_WAY_TO_SIGN_IN -> throw ProblemException.conflict("This is the last way to sign in to the account: "
                    + "set a password or add a passkey, or link another identity, first.");
        });
    }

    private static List<String> values(String spaceSeparated) {
        return spaceSeparated == null || spaceSeparated.isEmpty() ? List.of() : List.of(spaceSeparated.split(" "));
    }
}
