package org.ziggurat.gateway;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Where the API's metadata is (RFC 9728 §3.1) and how a challenge names it (§5.1). Plain JUnit. */
class ProtectedResourceTest {

    static ProtectedResource of(String resource, String base) {
        return ProtectedResource.of(Optional.ofNullable(resource), URI.create(base));
    }

    @Test
    void theWellKnownNameGoesBetweenTheHostAndThePath() {
        ProtectedResource api = of(null, "http://localhost:8080/api");
        assertEquals("http://localhost:8080/api", api.identifier());
        assertEquals("http://localhost:8080/.well-known/oauth-protected-resource/api", api.metadataUrl());
        assertEquals("/.well-known/oauth-protected-resource/api", api.metadataPath());
        // The identifier has no terminating slash, nor has the address.
        assertEquals("https://example.org/api", of(null, "https://example.org/api/").identifier());
        assertEquals("https://example.org/.well-known/oauth-protected-resource/api",
                of(null, "https://example.org/api/").metadataUrl());
        assertEquals("https://example.org/.well-known/oauth-protected-resource", of(null, "https://example.org/").metadataUrl());
        assertEquals("https://example.org:8443/.well-known/oauth-protected-resource/v2/api",
                of(null, "https://example.org:8443/v2/api").metadataUrl());
    }

    @Test
    void aResourceSettingIsTheIdentifier() {
        ProtectedResource named = of("https://api.example.org", "https://example.org/api");
        assertEquals("https://api.example.org", named.identifier());
        assertEquals("https://api.example.org/.well-known/oauth-protected-resource", named.metadataUrl());
        ProtectedResource urn = of("urn:example:api", "https://example.org/api");
        assertEquals("urn:example:api", urn.identifier());
        assertEquals("https://example.org/.well-known/oauth-protected-resource/api", urn.metadataUrl());
    }

    @Test
    void aChallengeNamesTheMetadataOnce() {
        ProtectedResource api = of(null, "http://localhost:8080/api");
        String parameter = "resource_metadata=\"http://localhost:8080/.well-known/oauth-protected-resource/api\"";
        assertEquals("Bearer " + parameter, api.withMetadata("Bearer"));
        assertEquals("Bearer " + parameter, api.withMetadata(null));
        assertEquals("Bearer error=\"invalid_token\", " + parameter, api.withMetadata("Bearer error=\"invalid_token\""));
        assertEquals("DPoP algs=\"ES256\", error=\"invalid_dpop_proof\", " + parameter,
                api.withMetadata("DPoP algs=\"ES256\", error=\"invalid_dpop_proof\""));
        String named = "Bearer " + parameter;
        assertEquals(named, api.withMetadata(named));
    }
}
