package org.ziggurat.gateway.route;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PublicRoutesTest {

    private static Optional<PublicRoutes.Route> r(String path) {
        return PublicRoutes.resolve(path);
    }

    private static void routes(String path, String service, String upstreamPath) {
        assertEquals(Optional.of(new PublicRoutes.Route(service, upstreamPath)), r(path), path);
    }

    @Test
    void eachPrefixGoesToItsOwner() {
        routes("/oauth/token", PublicRoutes.AUTH, "/oauth/token");
        routes("/.well-known/oauth-authorization-server", PublicRoutes.AUTH, "/.well-known/oauth-authorization-server");
        routes("/oauth/status-lists/0", PublicRoutes.AUTH, "/oauth/status-lists/0");
        // RFC 8414 §3 for the issuer http://host/api: at the host's root, the issuer's path after the well-known name.
        routes("/.well-known/oauth-authorization-server/api", PublicRoutes.AUTH, "/.well-known/oauth-authorization-server/api");
        routes("/applications/grants/3", PublicRoutes.AUTH, "/applications/grants/3");
        routes("/authorizations", PublicRoutes.AUTH, "/authorizations");
        routes("/account/security", PublicRoutes.AUTH, "/account/security");
        routes("/identity-providers/orcid", PublicRoutes.AUTH, "/identity-providers/orcid");
        routes("/resource-servers/7/metadata", PublicRoutes.AUTH, "/resource-servers/7/metadata");
        routes("/user", PublicRoutes.DIRECTORY, "/user");
        routes("/user/organizations", PublicRoutes.DIRECTORY, "/user/organizations");
        routes("/people/alice", PublicRoutes.DIRECTORY, "/people/alice");
        routes("/organizations/7/members", PublicRoutes.DIRECTORY, "/organizations/7/members");
        routes("/alice/vocab/schemes/places/concepts", PublicRoutes.VOCAB, "/alice/vocab/schemes/places/concepts");
        routes("/alice/vocab", PublicRoutes.VOCAB, "/alice/vocab");
        routes("/team/repositories/data-1/data/events", PublicRoutes.EVENTS, "/team/repositories/data-1/data/events");
        routes("/team/repositories/r/data/events/stream", PublicRoutes.EVENTS, "/team/repositories/r/data/events/stream");
        routes("/team/webhooks", PublicRoutes.EVENTS, "/team/webhooks");
        routes("/audit/events", PublicRoutes.EVENTS, "/audit/events");
        routes("/audit/webhooks/3/deliveries", PublicRoutes.EVENTS, "/audit/webhooks/3/deliveries");
        routes("/team/webhooks/7/deliveries/9/redeliver", PublicRoutes.EVENTS, "/team/webhooks/7/deliveries/9/redeliver");
        routes("/team/repositories/r/webhooks", PublicRoutes.EVENTS, "/team/repositories/r/webhooks");
        routes("/team/repositories/r/webhooks/7/secret", PublicRoutes.EVENTS, "/team/repositories/r/webhooks/7/secret");
    }

    @Test
    void metricsTemplatesNameNoCallersValue() {
        java.util.Map<String, String> expected = new java.util.LinkedHashMap<>();
        expected.put("/people/alice", "/people/**");
        expected.put("/user", "/user");
        expected.put("/user/organizations", "/user/**");
        expected.put("/oauth/token", "/oauth/**");
        expected.put("/.well-known/oauth-authorization-server", "/.well-known/**");
        expected.put("/alice/vocab", "/{namespace}/vocab");
        expected.put("/alice/vocab/schemes/places/concepts/c-7", "/{namespace}/vocab/**");
        expected.put("/team/repositories/r/data/events", "/{namespace}/repositories/{repository}/data/events");
        expected.put("/team/repositories/r/data/events/12/commits", "/{namespace}/repositories/{repository}/data/events/**");
        expected.put("/team/webhooks", "/{namespace}/webhooks");
        expected.put("/audit/events", "/audit/**");
        expected.put("/team/webhooks/7/deliveries", "/{namespace}/webhooks/**");
        expected.put("/team/repositories/r/webhooks", "/{namespace}/repositories/{repository}/webhooks");
        expected.put("/team/repositories/r/webhooks/7", "/{namespace}/repositories/{repository}/webhooks/**");
        expected.forEach((path, template) -> assertEquals(template, r(path).orElseThrow().template(), path));
    }

    @Test
    void versionPrefixesAreRemoved() {
        routes("/v1/people/alice", PublicRoutes.DIRECTORY, "/people/alice");
        routes("/api/people/alice", PublicRoutes.DIRECTORY, "/people/alice");
        routes("/api/v1/people/alice", PublicRoutes.DIRECTORY, "/people/alice");
        routes("/v1/team/repositories/r/data/events", PublicRoutes.EVENTS, "/team/repositories/r/data/events");
        // Only whole segments are prefixes.
        assertEquals(Optional.empty(), r("/apiary/vocab/x").filter(route -> !route.service().equals(PublicRoutes.VOCAB)));
        routes("/apiary/vocab/x", PublicRoutes.VOCAB, "/apiary/vocab/x");
    }

    @Test
    void closedAndUnknownPathsHaveNoRoute() {
        for (String path : new String[] {"/", "", "/internal/people", "/api/internal/x", "/v1/internal", "/q/health",
                "/api/q/metrics", "/alice", "/alice/", "/alice/repositories/r/data", "/alice/repositories//data/events",
                "/alice/other", "/api", "/api/v1", "relative/path", "/alice/repositories//webhooks",
                "/alice/repositories/webhooks"}) {
            assertEquals(Optional.empty(), r(path), path);
        }
    }

    /** The token status lists go the OAuth way (no token asked for) and are no page: CORS applies. */
    @Test
    void tokenStatusListsAreOAuthAndNoPage() {
        org.junit.jupiter.api.Assertions.assertTrue(PublicRoutes.isOAuth("/oauth/status-lists/0"));
        org.junit.jupiter.api.Assertions.assertTrue(PublicRoutes.isOAuth("/oauth/status-lists"));
        org.junit.jupiter.api.Assertions.assertFalse(PublicRoutes.isAuthorizationPage("/oauth/status-lists/0"));
    }
}
