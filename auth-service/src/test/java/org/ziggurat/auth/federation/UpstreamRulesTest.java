package org.ziggurat.auth.federation;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a provider's claims become here: ORCID iDs, usernames to propose, methods carried. */
class UpstreamRulesTest {

    @Test
    void anOrcidIdCountsOnlyWithItsChecksum() {
        assertEquals("0000-0002-1825-0097", OrcidIds.of("0000-0002-1825-0097"));
        assertEquals("0000-0002-1825-0097", OrcidIds.of("https://orcid.org/0000-0002-1825-0097"));
        assertEquals("0000-0002-1694-233X", OrcidIds.of("0000-0002-1694-233X"), "X is the checksum 10");
        assertEquals("0000-0001-5109-3700", OrcidIds.of(" https://sandbox.orcid.org/0000-0001-5109-3700 "));
        assertNull(OrcidIds.of("0000-0002-1825-0098"), "a wrong checksum");
        assertNull(OrcidIds.of("0000-0002-1825-009"));
        assertNull(OrcidIds.of("https://evil.example/0000-0002-1825-0097"));
        assertNull(OrcidIds.of(null));
    }

    private static UpstreamIdentity who(String preferred, String email, String name) {
        return new UpstreamIdentity("p", "s", preferred, name, email, false, List.of(), null, List.of(), "https://p.example");
    }

    @Test
    void aUsernameIsProposedInTheDirectorysForm() {
        assertEquals("ada-lovelace", UsernameProposals.of(who("Ada.Lovelace", null, null)));
        assertEquals("jose", UsernameProposals.of(who(null, "José@uni.example", null)));
        assertEquals("marie-curie", UsernameProposals.of(who("--", null, "Marie  Curie")));
        assertEquals("", UsernameProposals.of(who(null, null, "漢字")));
        String longest = UsernameProposals.of(who("a".repeat(38) + "-bcd", null, null));
        assertEquals(38, longest.length(), "cut at 39 with no trailing hyphen: " + longest);
        assertEquals("b".repeat(39), UsernameProposals.of(who("b".repeat(39), null, null)), "39 is kept whole");
        assertEquals("b".repeat(39), UsernameProposals.of(who("b".repeat(40), null, null)));
    }

    @Test
    void onlyRegisteredMethodsAreCarriedAndRefedsMfaIsMfa() {
        assertEquals(List.of("pwd", "otp"), OidcUpstream.amr(List.of("pwd", "otp", "made-up", 3), null));
        assertEquals(List.of("pwd", "mfa"), OidcUpstream.amr(List.of("pwd"), "https://refeds.org/profile/mfa"));
        assertEquals(List.of(), OidcUpstream.amr("pwd", "1"));
        assertEquals(List.of(), OidcUpstream.amr(null, null));
    }

    private static FederationSettings.Provider provider(String kind, String issuer, String auth) {
        return new FederationSettings.Provider() {
            public String kind() { return kind; }
            public Optional<String> displayName() { return Optional.empty(); }
            public Optional<String> issuer() { return Optional.ofNullable(issuer); }
            public String clientId() { return "c"; }
            public Optional<String> clientSecret() { return Optional.empty(); }
            public String clientAuth() { return auth; }
            public Optional<String> scopes() { return Optional.empty(); }
            public Optional<String> orcidClaim() { return Optional.of("orcid"); }
            public Optional<List<String>> assurance() { return Optional.of(List.of("https://refeds.org/assurance")); }
            public boolean newAccounts() { return true; }
            public String authorizationEndpoint() { return "https://github.com/login/oauth/authorize"; }
            public String tokenEndpoint() { return "https://github.com/login/oauth/access_token"; }
            public String apiBase() { return "https://api.github.com"; }
        };
    }

    private static FederationSettings settings() {
        return new FederationSettings() {
            public java.time.Duration attemptLifetime() { return java.time.Duration.ofMinutes(10); }
            public java.time.Duration timeout() { return java.time.Duration.ofSeconds(5); }
            public java.time.Duration refreshEvery() { return java.time.Duration.ofSeconds(5); }
            public Optional<List<String>> allowedNetworks() { return Optional.empty(); }
            public Map<String, Provider> providers() { return Map.of(); }
        };
    }

    @Test
    void aBadProviderStopsTheServiceAtStart() {
        assertThrows(IllegalStateException.class, () -> UpstreamProviders.create("Bad Id", provider("oidc", "https://x", "basic"), settings()));
        assertThrows(IllegalStateException.class, () -> UpstreamProviders.create("x", provider("oidc", null, "basic"), settings()));
        assertThrows(IllegalStateException.class, () -> UpstreamProviders.create("x", provider("oidc", "ftp://x", "basic"), settings()));
        assertThrows(IllegalStateException.class, () -> UpstreamProviders.create("x", provider("saml", "https://x", "basic"), settings()));
        assertThrows(IllegalStateException.class, () -> UpstreamProviders.create("x", provider("oidc", "https://x", "jwt"), settings()));
        assertEquals("ORCID", UpstreamProviders.create("orcid", provider("orcid", null, "basic"), settings()).displayName());
        assertEquals("GitHub", UpstreamProviders.create("gh", provider("github", null, "post"), settings()).displayName());
    }

    @Test
    void theClaimsOfAnInstitutionBecomeAnIdentity() {
        OidcUpstream upstream = new OidcUpstream("uni", provider("oidc", "https://idp.example", "basic"), false,
                java.time.Duration.ofSeconds(1));
        UpstreamIdentity identity = upstream.identity("s-1", Map.of("email", "ada@uni.example", "email_verified", true,
                "given_name", "Ada", "family_name", "Lovelace", "orcid", "https://orcid.org/0000-0002-1825-0097",
                "eduperson_assurance", List.of("https://refeds.org/assurance", "has space", "https://refeds.org/assurance",
                        "https://other-authority.example/LoA#high"),
                "amr", List.of("pwd")));
        assertEquals("Ada Lovelace", identity.name());
        assertEquals("0000-0002-1825-0097", identity.orcid());
        assertEquals(List.of("https://refeds.org/assurance"), identity.assurance(),
                "no spaces, no repeats, and only what the operator lets this provider assert");
        assertEquals("https://idp.example", identity.issuer(), "the issuer that vouched");
        assertTrue(identity.emailVerified());
        assertEquals("ada@uni.example", identity.label());
        UpstreamIdentity unverified = upstream.identity("s-2", Map.of("email", "x@uni.example", "email_verified", "true"));
        assertEquals(false, unverified.emailVerified(), "only a JSON true verifies");
        OidcUpstream orcid = new OidcUpstream("orcid", provider("orcid", null, "basic"), true, java.time.Duration.ofSeconds(1));
        assertEquals("0000-0002-1825-0097", orcid.identity("0000-0002-1825-0097", Map.of()).orcid());
        assertThrows(Upstream.Refused.class, () -> orcid.identity("not-an-id", Map.of()));
    }

    @Test
    void providersAreConfiguredThroughEnvironmentVariablesAsTheReadmeShows() {
        Map<String, String> env = Map.of(
                "ZIGGURAT_AUTH_FEDERATION_PROVIDERS_EGI_ISSUER", "https://aai.egi.eu/auth/realms/egi",
                "ZIGGURAT_AUTH_FEDERATION_PROVIDERS_EGI_CLIENT_ID", "egi-client",
                "ZIGGURAT_AUTH_FEDERATION_PROVIDERS_EGI_CLIENT_SECRET", "s",
                "ZIGGURAT_AUTH_FEDERATION_PROVIDERS_EGI_ORCID_CLAIM", "orcid",
                "ZIGGURAT_AUTH_FEDERATION_PROVIDERS_ORCID_KIND", "orcid",
                "ZIGGURAT_AUTH_FEDERATION_PROVIDERS_ORCID_CLIENT_ID", "APP-1");
        // Quarkus reads durations as "10m"; plain SmallRye needs its converter.
        FederationSettings settings = new io.smallrye.config.SmallRyeConfigBuilder()
                .withConverter(java.time.Duration.class, 200, new io.quarkus.runtime.configuration.DurationConverter())
                .withSources(new io.smallrye.config.EnvConfigSource(env, 300))
                .withMapping(FederationSettings.class).build().getConfigMapping(FederationSettings.class);
        assertEquals(java.util.Set.of("egi", "orcid"), settings.providers().keySet());
        assertEquals("egi-client", settings.providers().get("egi").clientId());
        assertEquals(Optional.of("orcid"), settings.providers().get("egi").orcidClaim());
        assertEquals("orcid", settings.providers().get("orcid").kind());
        assertEquals("basic", settings.providers().get("orcid").clientAuth());
        FederationSettings none = new io.smallrye.config.SmallRyeConfigBuilder()
                .withConverter(java.time.Duration.class, 200, new io.quarkus.runtime.configuration.DurationConverter())
                .withMapping(FederationSettings.class).build().getConfigMapping(FederationSettings.class);
        assertTrue(none.providers().isEmpty(), "no provider configured: none offered");
    }

    @Test
    void anIdTokenForSeveralAudiencesNamesThisClientAsItsAuthorizedParty() {
        OidcUpstream.checkAuthorizedParty(List.of("c"), null, "c");
        OidcUpstream.checkAuthorizedParty(List.of("c"), "c", "c");
        OidcUpstream.checkAuthorizedParty(List.of("c", "other"), "c", "c");
        assertEquals(Upstream.Reason.AUTHORIZED_PARTY, assertThrows(Upstream.Refused.class,
                () -> OidcUpstream.checkAuthorizedParty(List.of("c", "other"), null, "c")).reason());
        assertEquals(Upstream.Reason.AUTHORIZED_PARTY, assertThrows(Upstream.Refused.class,
                () -> OidcUpstream.checkAuthorizedParty(List.of("c"), "other", "c")).reason());
    }

    @Test
    void aProvidersEndpointIsHeldToTheAddressRulesFormAtStart() {
        assertThrows(IllegalStateException.class, () -> UpstreamProviders.create("x",
                provider("oidc", "https://user:pw@idp.example", "basic"), settings()));
        assertThrows(IllegalStateException.class, () -> UpstreamProviders.create("x",
                provider("oidc", "https://idp.example/#fragment", "basic"), settings()));
    }
}
