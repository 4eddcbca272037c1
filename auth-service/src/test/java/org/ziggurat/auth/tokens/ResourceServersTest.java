package org.ziggurat.auth.tokens;

import org.junit.jupiter.api.Test;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Resource indicators (RFC 8707) without HTTP: which resources are taken, a token's audience and its scopes. */
class ResourceServersTest {

    static final String PLATFORM = "https://platform.example.org/api";
    static final String STORAGE = "https://storage.example.org";
    static final String COMPUTE = "https://compute.example.org/api";
    static final ResourceServers SERVERS = new ResourceServers(PLATFORM, List.of(
            new ResourceServers.Server(STORAGE, Set.of("user", "write"), "storage-service"),
            new ResourceServers.Server(COMPUTE, Set.of("user"), null)));

    static OAuthError refusal(Runnable call) {
        return assertThrows(OAuthException.class, call::run).error();
    }

    @Test
    void onlyRegisteredAbsoluteUrisWithoutFragmentsAreResources() {
        assertEquals(List.of(), SERVERS.parse((String) null));
        assertEquals(List.of(), SERVERS.parse("  "));
        assertEquals(List.of(STORAGE, COMPUTE), SERVERS.parse(STORAGE + " " + COMPUTE + " " + STORAGE));
        assertEquals(List.of(PLATFORM), SERVERS.parse(PLATFORM));
        for (String refused : List.of("https://elsewhere.example.org", STORAGE + "#part", "storage", "urn:x:y", "/relative",
                "https://bad host.example.org", "https://" + "x".repeat(2000) + ".org")) {
            assertEquals(OAuthError.INVALID_TARGET, refusal(() -> SERVERS.parse(refused)), refused);
        }
        assertEquals("storage-service", SERVERS.byIdentifier(STORAGE).clientId());
        assertNull(SERVERS.byIdentifier("https://elsewhere.example.org"));
        assertEquals(PLATFORM, SERVERS.platform());
    }

    @Test
    void atMostTenResources() {
        ResourceServers many = new ResourceServers(PLATFORM, java.util.stream.IntStream.range(0, 11)
                .mapToObj(i -> new ResourceServers.Server("https://r" + i + ".example.org", Set.of("user"), null)).toList());
        String ten = String.join(" ", java.util.stream.IntStream.range(0, 10).mapToObj(i -> "https://r" + i + ".example.org").toList());
        assertEquals(10, many.parse(ten).size());
        assertEquals(OAuthError.INVALID_TARGET, refusal(() -> many.parse(ten + " https://r10.example.org")));
    }

    @Test
    void aTokensAudienceIsWhatItsRequestNamesWithinItsGrant() {
        assertNull(ResourceServers.audience(List.of(), null), "nothing named, no grant resources: the platform");
        assertNull(ResourceServers.audience(List.of(), List.of()));
        assertEquals(List.of(STORAGE), ResourceServers.audience(List.of(), List.of(STORAGE)));
        assertEquals(List.of(COMPUTE), ResourceServers.audience(List.of(COMPUTE), null));
        assertEquals(List.of(COMPUTE), ResourceServers.audience(List.of(COMPUTE), List.of(STORAGE, COMPUTE)));
        assertEquals(OAuthError.INVALID_TARGET, refusal(() -> ResourceServers.audience(List.of(COMPUTE), List.of(STORAGE))));
        assertEquals(OAuthError.INVALID_TARGET,
                refusal(() -> ResourceServers.audience(List.of(COMPUTE, STORAGE), List.of(STORAGE))));
    }

    @Test
    void aTokenCarriesTheScopesItsAudienceUnderstands() {
        List<String> scopes = List.of("user", "write", "update", "openid");
        assertEquals(scopes, SERVERS.scopesFor(null, scopes));
        assertEquals(scopes, SERVERS.scopesFor(List.of(STORAGE, PLATFORM), scopes));
        assertEquals(List.of("user", "write"), SERVERS.scopesFor(List.of(STORAGE), scopes));
        assertEquals(List.of("user"), SERVERS.scopesFor(List.of(COMPUTE), scopes));
        assertEquals(List.of("user", "write"), SERVERS.scopesFor(List.of(COMPUTE, STORAGE), scopes));
        assertEquals(List.of(), SERVERS.scopesFor(List.of(COMPUTE), List.of("update")));
        assertEquals(List.of(PLATFORM), SERVERS.stated(null));
        assertEquals(List.of(PLATFORM), SERVERS.stated(List.of()));
        assertEquals(List.of(STORAGE), SERVERS.stated(List.of(STORAGE)));
        assertTrue(SERVERS.forPlatform(null));
        assertTrue(SERVERS.forPlatform(List.of()));
        assertTrue(SERVERS.forPlatform(List.of(STORAGE, PLATFORM)));
        assertFalse(SERVERS.forPlatform(List.of(STORAGE)));
    }

    @Test
    void aResourceMayKeepItsTokensShorter() {
        ResourceServers servers = new ResourceServers(PLATFORM, List.of(
                new ResourceServers.Server(STORAGE, Set.of("user"), null, java.time.Duration.ofSeconds(60)),
                new ResourceServers.Server(COMPUTE, Set.of("user"), null, java.time.Duration.ofSeconds(600)),
                new ResourceServers.Server("https://long.example.org", Set.of("user"), null, java.time.Duration.ofDays(1))));
        java.time.Duration platform = java.time.Duration.ofSeconds(7200);
        assertEquals(platform, servers.lifetime(null, platform));
        assertEquals(platform, servers.lifetime(List.of("https://long.example.org"), platform), "never longer");
        assertEquals(java.time.Duration.ofSeconds(600), servers.lifetime(List.of(COMPUTE), platform));
        assertEquals(java.time.Duration.ofSeconds(60), servers.lifetime(List.of(COMPUTE, STORAGE), platform));
        assertEquals(java.time.Duration.ofSeconds(60), servers.lifetime(List.of(STORAGE, COMPUTE), platform));
    }

    @Test
    void aBadConfigurationStopsTheService() {
        assertThrows(IllegalStateException.class, () -> new ResourceServers(PLATFORM,
                List.of(new ResourceServers.Server("https://x.example.org#f", Set.of("user"), null))));
        assertThrows(IllegalStateException.class, () -> new ResourceServers(PLATFORM,
                List.of(new ResourceServers.Server("https://x.example.org", Set.of("everything"), null))));
        assertThrows(IllegalStateException.class, () -> new ResourceServers(PLATFORM,
                List.of(new ResourceServers.Server(PLATFORM, Set.of("user"), null))));
        assertThrows(IllegalStateException.class, () -> new ResourceServers(PLATFORM,
                List.of(new ResourceServers.Server("https://x.example.org", Set.of("user"), null, null, "paseto"))));
    }

    /** The registered ones (the registry's snapshot) are resources as the configured are; a configured identifier wins. */
    @Test
    void registeredResourceServersJoinTheConfiguredOnes() {
        ResourceServers servers = new ResourceServers(PLATFORM, List.of(new ResourceServers.Server(STORAGE, Set.of("user"), null)));
        String registered = "https://registered.example.org";
        assertEquals(OAuthError.INVALID_TARGET, refusal(() -> servers.parse(registered)));
        servers.registered(List.of(new ResourceServers.Server(registered, Set.of("write"), null, java.time.Duration.ofSeconds(90), "jwt"),
                        new ResourceServers.Server(STORAGE, Set.of("write", "admin"), "taken", null, "opaque")),
                List.of(new ResourceServers.Credential("rs_a", new byte[] {1}, registered),
                        new ResourceServers.Credential("rs_b", new byte[] {2}, STORAGE)));
        assertEquals(List.of(registered), servers.parse(registered));
        assertEquals(List.of("write"), servers.scopesFor(List.of(registered), List.of("user", "write")));
        assertEquals(java.time.Duration.ofSeconds(90), servers.lifetime(List.of(registered), java.time.Duration.ofHours(2)));
        assertEquals(Set.of("user"), servers.byIdentifier(STORAGE).scopes(), "the configured one wins");
        assertTrue(servers.configured(STORAGE));
        assertFalse(servers.configured(registered));
        assertEquals(registered, servers.credential("rs_a").identifier());
        assertNull(servers.credential("rs_b"), "no credential for an identifier the configuration has");
        assertNull(servers.credential(null));
        servers.registered(List.of(), List.of());
        assertNull(servers.byIdentifier(registered));
        assertNull(servers.credential("rs_a"));
    }
}
