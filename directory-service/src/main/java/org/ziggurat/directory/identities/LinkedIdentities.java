package org.ziggurat.directory.identities;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
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
 * account page, or the sign-in that follows the provider's), never because an address matches
 * (a new account made with one: {@link IdentitySignUps}). Each may be removed, but not the last
 * way a person has to sign in.
 */
@ApplicationScoped
public class LinkedIdentities {

    public static final int MOST_PER_PERSON = 20;
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

    private final Callers callers;
    private final LinkedIdentityRepository repository;

    LinkedIdentities(Callers callers, LinkedIdentityRepository repository) {
        this.callers = callers;
        this.repository = repository;
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
