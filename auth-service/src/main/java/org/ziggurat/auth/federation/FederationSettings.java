package org.ziggurat.auth.federation;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The identity providers people may sign in with, as the operator configures them:
 * {@code ziggurat.auth.federation.providers.<id>.*}, where the id (lower-case letters, digits,
 * hyphens) names the provider in the links people make, so it must never change.
 */
@ConfigMapping(prefix = "ziggurat.auth.federation")
public interface FederationSettings {

    /** How long a person has at the provider, and then to choose a new account or a link. */
    @WithDefault("10m")
    Duration attemptLifetime();

    /** How long a call to a provider (discovery, keys, token, user info) may take. */
    @WithDefault("5s")
    Duration timeout();

    /** How often every replica reads the providers operators added through the API again. */
    @WithDefault("5s")
    java.time.Duration refreshEvery();

    /**
     * Networks (CIDR, or single addresses) a provider's endpoints may be in although they are not
     * public: the operator's own identity provider on a private network, a test's on loopback (plain
     * http is allowed only to a loopback address listed here). Every other private, loopback,
     * link-local or reserved address is refused, as webhooks' receivers are.
     */
    Optional<List<String>> allowedNetworks();

    Map<String, Provider> providers();

    interface Provider {

        /**
         * {@code oidc}: any OpenID Connect provider (an institution's proxy: EGI Check-in,
         * MyAccessID, Helmholtz AAI, LS AAI, Keycloak); {@code orcid}: ORCID, whose subject is the
         * person's ORCID iD; {@code github}: GitHub's OAuth 2.0 and user API.
         */
        @WithDefault("oidc")
        String kind();

        /** The button's words: "Sign in with ..." (default: the id). */
        Optional<String> displayName();

        /** OpenID Connect: the issuer, whose discovery document is read (ORCID: https://orcid.org). */
        Optional<String> issuer();

        String clientId();

        /** A confidential client's secret (sent with HTTP Basic, or in the form: client-auth=post); none for a public client. */
        Optional<String> clientSecret();

        /** client_secret_basic (basic) or client_secret_post (post). */
        @WithDefault("basic")
        String clientAuth();

        /** The scopes asked for (default: openid profile email; ORCID: openid; GitHub: read:user user:email). */
        Optional<String> scopes();

        /** A claim of the provider that holds the person's ORCID iD (an institution's proxy may release one). */
        Optional<String> orcidClaim();

        /**
         * The {@code eduperson_assurance} values this provider may assert for the platform to pass on
         * (its allow-list, for example the REFEDS RAF values its federation vouches for); none by
         * default: what a provider says of its own identity proofing is not ours to re-assert unasked.
         */
        Optional<List<String>> assurance();

        /** Whether a person without an account may make one by signing in here (else only link). */
        @WithDefault("true")
        boolean newAccounts();

        /** GitHub (or GitHub Enterprise): its authorization endpoint. */
        @WithDefault("https://github.com/login/oauth/authorize")
        String authorizationEndpoint();

        /** GitHub: its token endpoint. */
        @WithDefault("https://github.com/login/oauth/access_token")
        String tokenEndpoint();

        /** GitHub: its REST API's base. */
        @WithDefault("https://api.github.com")
        String apiBase();
    }
}
