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

    /**
     * Why an answer proves nothing, as the security log names it: a fixed word, never the
     * provider's text (an answer's {@code error} or {@code iss} would write lines of its own).
     */
    enum Reason {
        PROVIDER_ERROR, ISSUER_MISMATCH, ISSUER_MISSING, NO_CODE, CODE_REFUSED, TOKEN_ANSWER_MALFORMED, NO_ID_TOKEN,
        ID_TOKEN_INVALID, AUTHORIZED_PARTY, USER_INFO_SUBJECT, USER_INFO_REFUSED, USER_INFO_MALFORMED, ORCID_SUBJECT,
        NO_SUBJECT, API_REFUSED, API_ANSWER_MALFORMED;

        /** The word in the log: {@code issuer_mismatch}. */
        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * The provider's answer proves nothing (a wrong issuer, token, nonce, a refusal): its
     * {@link Reason} for the log, and the provider's own error code when it sent one (to be
     * escaped before it is written anywhere).
     */
    final class Refused extends RuntimeException {
        private final Reason reason;
        private final String providerError;

        public Refused(Reason reason, String detail) {
            this(reason, detail, null, null);
        }

        public Refused(Reason reason, String detail, Throwable cause) {
            this(reason, detail, null, cause);
        }

        private Refused(Reason reason, String detail, String providerError, Throwable cause) {
            super(reason.word() + ": " + detail, cause, false, false);
            this.reason = reason;
            this.providerError = providerError;
        }

        /** The provider answered with an error ({@code access_denied}, …) instead of a code. */
        public static Refused providerError(String error) {
            return new Refused(Reason.PROVIDER_ERROR, "the provider answered with an error", error, null);
        }

        public Reason reason() {
            return reason;
        }

        /** The provider's error code as it sent it (null when none): for the log only once escaped. */
        public String providerError() {
            return providerError;
        }
    }

    /**
     * The provider's identifier as its identities' links record it: an OpenID Connect provider's
     * issuer, GitHub's API base. An identity of another issuer under the same id is another one.
     */
    String issuer();

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
