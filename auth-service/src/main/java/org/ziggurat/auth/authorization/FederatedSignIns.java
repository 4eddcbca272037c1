package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.Issuer;
import org.ziggurat.auth.federation.Upstream;
import org.ziggurat.auth.federation.UpstreamIdentity;
import org.ziggurat.auth.federation.UpstreamProviders;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.platform.logging.LogValues;

import java.util.Arrays;

/**
 * Signing in with another provider: the attempt started for the browser, the provider's answer
 * proven, then the identity's account signed in (its owner's own second factor first, when they
 * have one and keep asking for it), or, for an identity no account uses, the person's choice: a new
 * account, or their account, which they sign in to before it is linked. An identity never joins
 * an account because an address matches. From the account page, a signed-in person links one.
 * What the person does with an identity no account uses is {@link FederatedAccounts}' (the pages
 * reach it through here).
 */
@ApplicationScoped
public class FederatedSignIns {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");
    /**
     * Where providers send the browser back, under the issuer, each to its own path below it
     * ({@code /account/federation/callback/<id>}: register it with each provider), so that an answer
     * is taken only for an attempt of the provider whose path it came to (RFC 9700 §4.4.2: a mix-up
     * defence that holds for a provider without RFC 9207's iss, such as GitHub). The path itself
     * took the answers of attempts begun before each provider had its own.
     */
    public static final String CALLBACK_PATH = "/account/federation/callback";

    public sealed interface Outcome permits SignedIn, SecondFactorDue, Unlinked, Linked {
    }

    /** Signed in: the new session, and where the person goes. */
    public record SignedIn(LoginSessions.Created created, FederationAttempts.Return back) implements Outcome, NewAccount {
    }

    /** What a new account through a provider came to: signed in, or a link mailed to its address. */
    public sealed interface NewAccount permits SignedIn, ConfirmationMailed {
    }

    /** The person's own second factor is due: the pending sign-in's cookie value. */
    public record SecondFactorDue(String pendingSignIn, long personId, FederationAttempts.Return back) implements Outcome {
    }

    /** No account uses the identity: the held identity's cookie value, for the person's choice. */
    public record Unlinked(String held, FederationAttempts.Return back) implements Outcome {
    }

    /** Linked to the signed-in person ({@code added}: not theirs before). */
    public record Linked(boolean added, FederationAttempts.Return back) implements Outcome {
    }

    /** The attempt or the held identity is unknown, another browser's, used or expired: start again. */
    public static final class AttemptGone extends RuntimeException {
        public AttemptGone() {
            super("no such federation attempt", null, false, false);
        }
    }

    /** The provider's answer proved nothing ({@code cancelled}: the person turned back there); where they began. */
    public static final class NotProven extends RuntimeException {
        private final FederationAttempts.Return back;
        private final boolean cancelled;

        NotProven(FederationAttempts.Return back, boolean cancelled, Throwable cause) {
            super("not proven", cause, false, false);
            this.back = back;
            this.cancelled = cancelled;
        }

        public FederationAttempts.Return back() {
            return back;
        }

        public boolean cancelled() {
            return cancelled;
        }
    }

    /** The identity is another account's already. */
    public static final class LinkedElsewhere extends RuntimeException {
        LinkedElsewhere() {
            super("identity linked to another account", null, false, false);
        }
    }

    /**
     * A new account waits for its address: the directory mailed a link to it (the provider did not
     * verify that address), and nothing exists until it is used.
     */
    public record ConfirmationMailed(String email, String username, FederationAttempts.Return back) implements NewAccount {
    }

    /** The provider does not make new accounts here; the person may link the identity to theirs. */
    public static final class NewAccountsClosed extends RuntimeException {
        NewAccountsClosed() {
            super("no new accounts through this provider", null, false, false);
        }
    }

    private final FederationAttempts attempts;
    private final UpstreamProviders providers;
    private final DirectoryClient directory;
    private final LoginSessions sessions;
    private final PendingSignIns pending;
    private final FederatedAccounts accounts;
    private final AuthConfig config;

    FederatedSignIns(FederationAttempts attempts, UpstreamProviders providers, @RestClient DirectoryClient directory,
            LoginSessions sessions, PendingSignIns pending, FederatedAccounts accounts, AuthConfig config) {
        this.attempts = attempts;
        this.providers = providers;
        this.directory = directory;
        this.sessions = sessions;
        this.pending = pending;
        this.accounts = accounts;
        this.config = config;
    }

    /** The provider's own redirect URI: {@code {issuer}/account/federation/callback/<id>}. */
    public String redirectUri(String providerId) {
        return Issuer.of(config) + CALLBACK_PATH + "/" + providerId;
    }

    /** The redirect URI every provider shared before: the attempts begun then come back to it. */
    public String sharedRedirectUri() {
        return Issuer.of(config) + CALLBACK_PATH;
    }

    /** A new attempt at the provider: the browser's cookie value and the provider's URL; {@code linking}: the account page's session. */
    public Uni<Started> start(Upstream provider, FederationAttempts.Return back, LoginSessions.Session linking) {
        String redirectUri = redirectUri(provider.id());
        return attempts.start(provider.id(), back, linking == null ? null : linking.hash(), redirectUri)
                .chain(started -> provider.authorizationUrl(started.attempt(), redirectUri)
                        .map(url -> new Started(started.browserValue(), url)));
    }

    public record Started(String browserValue, String providerUrl) {
    }

    /**
     * The provider's answer, which came to the redirect URI of {@code callbackProvider} (null: the
     * shared one of old): taken only for an attempt of that provider that was sent there. Fails
     * with {@link AttemptGone}, {@link NotProven}, {@link LinkedElsewhere}, or a dependency's
     * unavailability.
     */
    public Uni<Outcome> finish(String state, String browser, Upstream.Answer answer, LoginSessions.Session session,
            String clientAddress, String callbackProvider) {
        String expected = callbackProvider == null ? null : redirectUri(callbackProvider);
        return attempts.take(state, browser, expected).chain(taken -> {
            Upstream provider = taken == null ? null : providers.find(taken.provider());
            if (provider == null) {
                return Uni.createFrom().failure(new AttemptGone());
            }
            String redirectUri = taken.redirectUri() != null ? taken.redirectUri() : sharedRedirectUri();
            return provider.identity(answer, taken.attempt(), redirectUri)
                    .onFailure(Upstream.Refused.class).transform(e -> {
                        Upstream.Refused refused = (Upstream.Refused) e;
                        // Fixed words and our own ids only: the answer's error and iss are the sender's to choose.
                        EVENTS.infof("event=upstream_refused provider=%s client_id=%s reason=%s%s", provider.id(),
                                LogValues.escaped(taken.back().clientId()), refused.reason().word(),
                                refused.providerError() == null ? "" : " provider_error=" + LogValues.escaped(refused.providerError()));
                        return new NotProven(taken.back(), "access_denied".equals(answer.error()), e);
                    })
                    .chain(identity -> taken.linkSession() != null
                            ? link(identity, taken, session, clientAddress)
                            : signIn(identity, taken.back()));
        });
    }

    private Uni<Outcome> link(UpstreamIdentity identity, FederationAttempts.Taken taken, LoginSessions.Session session,
            String clientAddress) {
        if (session == null || !Arrays.equals(session.hash(), taken.linkSession())) {
            // The session that asked ended (or another one is in this browser now): link nothing.
            return Uni.createFrom().failure(new AttemptGone());
        }
        return accounts.linkTo(session.personId(), identity, clientAddress).map(added -> new Linked(added, taken.back()));
    }

    private Uni<Outcome> signIn(UpstreamIdentity identity, FederationAttempts.Return back) {
        return directory.identitySignIn(FederatedAccounts.toDirectory(identity)).chain(holder -> {
            if (holder.secondFactorDue()) {
                return pending.create(holder.personId(), holder.username(), identity.amr(), identity.assurance()).map(value -> {
                    EVENTS.infof("event=upstream_passed provider=%s client_id=%s person_id=%d second_factor=due",
                            identity.provider(), back.clientId(), holder.personId());
                    return (Outcome) new SecondFactorDue(value, holder.personId(), back);
                });
            }
            return sessions.create(holder.personId(), holder.username(), identity.amr(), holder.secondFactor(),
                    identity.assurance()).map(created -> {
                EVENTS.infof("event=login_succeeded method=upstream provider=%s client_id=%s person_id=%d", identity.provider(),
                        back.clientId(), holder.personId());
                return (Outcome) new SignedIn(created, back);
            });
        }).onFailure(DirectoryClient.NotFound.class).recoverWithUni(() -> attempts.hold(identity, back)
                .map(value -> new Unlinked(value, back)));
    }

    /** Where this browser's attempt of {@code state} may end, read without taking it; null when unknown. */
    public Uni<String> formTarget(String state, String browser) {
        return attempts.formTarget(state, browser);
    }
}
