package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.auth.authorization.FederatedSignIns.AttemptGone;
import org.ziggurat.auth.authorization.FederatedSignIns.ConfirmationMailed;
import org.ziggurat.auth.authorization.FederatedSignIns.LinkedElsewhere;
import org.ziggurat.auth.authorization.FederatedSignIns.NewAccount;
import org.ziggurat.auth.authorization.FederatedSignIns.NewAccountsClosed;
import org.ziggurat.auth.authorization.FederatedSignIns.SignedIn;
import org.ziggurat.auth.federation.Upstream;
import org.ziggurat.auth.federation.UpstreamIdentity;
import org.ziggurat.auth.federation.UpstreamProviders;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.platform.logging.LogValues;

/**
 * What a person does with an identity no account uses, held for their choice: a new account with
 * it, or linking it to their own account once signed in; and the account a mailed link makes, for
 * an address the provider did not verify. An identity never joins an account because an address
 * matches.
 */
@ApplicationScoped
public class FederatedAccounts {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final FederationAttempts attempts;
    private final UpstreamProviders providers;
    private final DirectoryClient directory;
    private final LoginSessions sessions;

    FederatedAccounts(FederationAttempts attempts, UpstreamProviders providers, @RestClient DirectoryClient directory,
            LoginSessions sessions) {
        this.attempts = attempts;
        this.providers = providers;
        this.directory = directory;
        this.sessions = sessions;
    }

    /** The identity a browser's value holds; {@link AttemptGone} when none. */
    public Uni<FederationAttempts.Held> held(String value) {
        return attempts.held(value).onItem().ifNull().failWith(AttemptGone::new);
    }

    /** The provider of a held identity (null when the operator removed it since). */
    public Upstream provider(FederationAttempts.Held held) {
        return providers.find(held.identity().provider());
    }

    /**
     * A new account with the held identity, signed in ({@link SignedIn}) when the provider verified
     * its address; with any other address a link goes to it ({@link ConfirmationMailed}) and the
     * account is made only when it is used (nobody is signed in now). {@link NewAccountsClosed}; the
     * directory's {@code Conflict} (a name, address or the identity taken), {@code Invalid} (naming
     * fields) and {@code PasswordThrottled} (too many links to the address).
     */
    public Uni<NewAccount> createAccount(String heldValue, String username, String displayName, String email) {
        return held(heldValue).chain(held -> {
            Upstream provider = provider(held);
            if (provider == null) {
                return Uni.createFrom().failure(new AttemptGone());
            }
            if (!provider.newAccounts()) {
                return Uni.createFrom().failure(new NewAccountsClosed());
            }
            UpstreamIdentity identity = held.identity();
            return directory.identitySignUp(new DirectoryClient.NewAccount(username, displayName, email, toDirectory(identity)))
                    .chain(person -> person.confirmationMailed()
                            ? attempts.release(heldValue).invoke(() -> EVENTS.infof("event=account_confirmation_mailed "
                                    + "method=upstream provider=%s client_id=%s", identity.provider(),
                                    LogValues.escaped(held.back().clientId())))
                                    .replaceWith((NewAccount) new ConfirmationMailed(email, username, held.back()))
                            : sessions.create(person.id(), person.username(), identity.amr(), false, identity.assurance())
                                    .call(() -> attempts.release(heldValue))
                                    .invoke(created -> EVENTS.infof("event=account_created method=upstream provider=%s "
                                            + "client_id=%s person_id=%d", identity.provider(), held.back().clientId(), person.id()))
                                    .map(created -> (NewAccount) new SignedIn(created, held.back())));
        });
    }

    /** Links the held identity to the signed-in person, who chose to; where they go then. */
    public Uni<FederationAttempts.Return> linkHeld(String heldValue, LoginSessions.Session session, String clientAddress) {
        return held(heldValue).chain(held -> linkTo(session.personId(), held.identity(), clientAddress)
                .call(() -> attempts.release(heldValue))
                .replaceWith(held.back()));
    }

    Uni<Boolean> linkTo(long personId, UpstreamIdentity identity, String clientAddress) {
        return directory.linkIdentity(personId, new DirectoryClient.IdentityLink(toDirectory(identity), clientAddress))
                .map(response -> response.getStatus() == 201)
                .invoke(added -> EVENTS.infof("event=identity_linked provider=%s person_id=%d new=%s", identity.provider(),
                        personId, added))
                .onFailure(DirectoryClient.Conflict.class).transform(e -> new LinkedElsewhere());
    }

    /**
     * The account a mailed link makes (its address confirmed, the identity linked); nobody is signed
     * in: the person signs in through the provider then. {@code LinkGone} for a link that is no
     * good, {@code Conflict} when the name, address or identity was taken meanwhile.
     */
    public Uni<DirectoryClient.NewAccountPerson> confirmAccount(String token) {
        return pendingAccount(token).chain(pending -> directory.confirmIdentitySignUp(new DirectoryClient.SignUpToken(token)))
                .invoke(person -> EVENTS.infof("event=account_created method=upstream_confirmed person_id=%d", person.id()));
    }

    /** What a mailed link would make, with the provider's name; the provider gone or changed is {@link ProviderChanged}. */
    public record PendingAccount(String username, String email, String providerName) {
    }

    /**
     * What a mailed link would make, while the provider that vouched for its identity is still the
     * one configured under its id (its issuer the same): a provider removed or replaced since the
     * sign-up links nobody ({@link ProviderChanged}). {@link DirectoryClient.LinkGone} for a link that is no good.
     */
    public Uni<PendingAccount> pendingAccount(String token) {
        return directory.pendingIdentitySignUp(new DirectoryClient.SignUpToken(token)).map(pending -> {
            Upstream provider = providers.find(pending.provider());
            if (provider == null || (pending.issuer() != null && !pending.issuer().isEmpty()
                    && !pending.issuer().equals(provider.issuer()))) {
                EVENTS.infof("event=account_refused reason=provider_changed provider=%s", pending.provider());
                throw new ProviderChanged();
            }
            return new PendingAccount(pending.username(), pending.email(), provider.displayName());
        });
    }

    /** The provider a pending sign-up was made with is gone, or is another issuer now. */
    public static final class ProviderChanged extends RuntimeException {
        ProviderChanged() {
            super("provider changed", null, false, false);
        }
    }

    static DirectoryClient.UpstreamIdentity toDirectory(UpstreamIdentity identity) {
        return new DirectoryClient.UpstreamIdentity(identity.provider(), identity.subject(), identity.label(), identity.email(),
                identity.emailVerified(), identity.assurance(), identity.orcid(), identity.issuer());
    }
}
