package org.ziggurat.auth.federation;

import io.smallrye.mutiny.Uni;

/** One configured provider: where to send the browser, and what its answer proves. */
public interface Upstream {

    /** A sign-in attempt's values: the state sent and checked, the nonce (OpenID Connect), the PKCE verifier. */
    record Attempt(String state, String nonce, String codeVerifier) {
    }

    /** The provider's answer at the redirect URI (RFC 6749 §4.1.2, RFC 9207's iss). */
    record Answer(String code, String iss, String error) {
    }

    /** The provider's answer proves nothing (a wrong issuer, token, nonce, a refusal): the reason is for the log. */
    final class Refused extends RuntimeException {
        public Refused(String reason) {
            super(reason, null, false, false);
        }

        public Refused(String reason, Throwable cause) {
            super(reason, cause, false, false);
        }
    }

    String id();

    /** The button's words after "Sign in with". */
    String displayName();

    boolean newAccounts();

    /** The URL of the provider's authorization endpoint for this attempt. */
    Uni<String> authorizationUrl(Attempt attempt, String redirectUri);

    /**
     * The identity the answer proves: the code exchanged and what came of it checked. Fails with
     * {@link Refused}, or {@code DependencyUnavailable} when the provider cannot be reached.
     */
    Uni<UpstreamIdentity> identity(Answer answer, Attempt attempt, String redirectUri);
}
