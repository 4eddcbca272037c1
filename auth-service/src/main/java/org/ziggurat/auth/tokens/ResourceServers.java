package org.ziggurat.auth.tokens;

import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.Issuer;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.Scopes;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The resources a token may be meant for (RFC 8707): the platform's own API, the resource servers
 * the deployment configures ({@code ziggurat.auth.resource-servers.*}), and those operators
 * register through the API, of which this holds the snapshot {@link ResourceServerRegistry} last
 * read (a configured identifier wins). Each understands some of the platform's scopes. A token's
 * audience is what its request named, and its scopes only those the audience understands; a token
 * that names none is the platform API's.
 */
@ApplicationScoped
public class ResourceServers {

    /** At most this many resources in one request. */
    static final int MAX_RESOURCES = 10;

    /**
     * A resource server: its identifier, the scopes it understands, the client it exchanges tokens
     * as (or null), how long its tokens live (null: the platform's lifetime), the format of access
     * token it wants ({@code jwt}, {@code opaque}; null: the client's choice).
     */
    public record Server(String identifier, Set<String> scopes, String clientId, java.time.Duration lifetime, String format) {

        public Server(String identifier, Set<String> scopes, String clientId, java.time.Duration lifetime) {
            this(identifier, scopes, clientId, lifetime, null);
        }

        public Server(String identifier, Set<String> scopes, String clientId) {
            this(identifier, scopes, clientId, null, null);
        }
    }

    /** A registered resource server's own credential, with which it introspects the tokens meant for it. */
    public record Credential(String clientId, byte[] secretHash, String identifier) {
    }

    private record Registered(Map<String, Server> byIdentifier, Map<String, Credential> byClientId) {
    }

    private final String platform;
    private final Map<String, Server> byIdentifier = new LinkedHashMap<>();
    private volatile Registered registered = new Registered(Map.of(), Map.of());

    @jakarta.inject.Inject
    ResourceServers(AuthConfig config) {
        this(config.platformResource().orElse(Issuer.of(config)), servers(config));
    }

    /** The platform API's identifier and the other resource servers (tests build them so). */
    ResourceServers(String platform, List<Server> servers) {
        this.platform = platform;
        byIdentifier.put(platform, new Server(platform, Set.copyOf(Scopes.KNOWN), null));
        for (Server server : servers) {
            String problem = problem(server.identifier());
            if (problem != null) {
                throw new IllegalStateException("resource server " + server.identifier() + ": the identifier " + problem);
            }
            for (String scope : server.scopes()) {
                if (!Scopes.KNOWN.contains(scope)) {
                    throw new IllegalStateException("resource server " + server.identifier() + ": '" + scope
                            + "' is not one of the platform's scopes " + Scopes.KNOWN);
                }
            }
            if (server.format() != null && !AccessTokenFormat.FORMATS.contains(server.format())) {
                throw new IllegalStateException("resource server " + server.identifier() + ": access-token-format is "
                        + AccessTokenFormat.FORMATS);
            }
            if (byIdentifier.put(server.identifier(), server) != null) {
                throw new IllegalStateException("resource server " + server.identifier() + " is named twice");
            }
        }
    }

    private static List<Server> servers(AuthConfig config) {
        List<Server> servers = new ArrayList<>();
        config.resourceServers().forEach((name, server) -> servers.add(new Server(server.identifier(),
                Set.copyOf(server.scopes()), server.clientId().orElse(null), server.accessTokenLifetime().orElse(null),
                server.accessTokenFormat().orElse(null))));
        return servers;
    }

    /** The platform API's identifier: the audience of a token that names no resource. */
    public String platform() {
        return platform;
    }

    /** The resource server known by this identifier, configured or registered; null for none. */
    public Server byIdentifier(String identifier) {
        Server configured = byIdentifier.get(identifier);
        return configured != null ? configured : registered.byIdentifier().get(identifier);
    }

    /** Whether the platform's API or the deployment's configuration has this identifier (the API may not take it). */
    public boolean configured(String identifier) {
        return byIdentifier.containsKey(identifier);
    }

    /** The registered resource server whose credential has this client_id; null for none. */
    public Credential credential(String clientId) {
        return clientId == null ? null : registered.byClientId().get(clientId);
    }

    /** The registered resource servers as last read (the registry's; configured identifiers are left out). */
    void registered(Collection<Server> servers, Collection<Credential> credentials) {
        Map<String, Server> next = new LinkedHashMap<>();
        servers.stream().filter(server -> !byIdentifier.containsKey(server.identifier()))
                .forEach(server -> next.put(server.identifier(), server));
        Map<String, Credential> byClientId = new LinkedHashMap<>();
        credentials.stream().filter(c -> next.containsKey(c.identifier())).forEach(c -> byClientId.put(c.clientId(), c));
        registered = new Registered(Map.copyOf(next), Map.copyOf(byClientId));
    }

    /**
     * The resources a request names (space-delimited, as the pages carry repeated values), each
     * checked: {@code invalid_target} for one that is no absolute URI without fragment (RFC 8707
     * §2) or that no resource server here has. Empty when none is named.
     */
    public List<String> parse(String requested) {
        if (requested == null || requested.isBlank()) {
            return List.of();
        }
        return parse(List.of(requested.trim().split(" +")));
    }

    public List<String> parse(Collection<String> requested) {
        Set<String> resources = new LinkedHashSet<>();
        for (String resource : requested) {
            String problem = problem(resource);
            if (problem != null) {
                throw invalidTarget("The resource " + problem + ".");
            }
            if (byIdentifier(resource) == null) {
                throw invalidTarget("The resource '" + clip(resource) + "' is not one this server issues tokens for.");
            }
            resources.add(resource);
        }
        if (resources.size() > MAX_RESOURCES) {
            throw invalidTarget("At most " + MAX_RESOURCES + " resources.");
        }
        return List.copyOf(resources);
    }

    /**
     * The audience of a token asked for {@code requested} under a grant that allows
     * {@code allowed} (null: any resource; none was named when it was given): the requested
     * resources, which must be among the allowed ones; none requested, the allowed ones; null for
     * the platform API alone.
     */
    public static List<String> audience(List<String> requested, List<String> allowed) {
        if (requested.isEmpty()) {
            return allowed == null || allowed.isEmpty() ? null : allowed;
        }
        if (allowed != null && !allowed.isEmpty() && !allowed.containsAll(requested)) {
            throw invalidTarget("The grant does not allow a token for that resource.");
        }
        return requested;
    }

    /** The audience a token states: its own, or the platform API's when it names none. */
    public List<String> stated(List<String> audience) {
        return audience == null || audience.isEmpty() ? List.of(platform) : audience;
    }

    /** Whether a token of this audience may be used at the platform's own API (the gateway, userinfo). */
    public boolean forPlatform(List<String> audience) {
        return audience == null || audience.isEmpty() || audience.contains(platform);
    }

    /**
     * The scopes a token for {@code audience} carries: those of {@code scopes} that at least one of
     * its resources understands (all of them for the platform API), in their order.
     */
    public List<String> scopesFor(List<String> audience, List<String> scopes) {
        if (forPlatform(audience)) {
            return scopes;
        }
        Set<String> understood = new LinkedHashSet<>();
        for (String resource : audience) {
            Server server = byIdentifier(resource);
            if (server != null) {
                understood.addAll(server.scopes());
            }
        }
        List<String> kept = new ArrayList<>();
        for (String scope : scopes) {
            if (understood.contains(scope)) {
                kept.add(scope);
            }
        }
        return kept;
    }

    /** How long a token for {@code audience} lives: the shortest of its resources' lifetimes and {@code platform}'s. */
    public java.time.Duration lifetime(List<String> audience, java.time.Duration platform) {
        java.time.Duration shortest = platform;
        for (String resource : audience == null ? List.<String>of() : audience) {
            Server server = byIdentifier(resource);
            if (server != null && server.lifetime() != null && server.lifetime().compareTo(shortest) < 0) {
                shortest = server.lifetime();
            }
        }
        return shortest;
    }

    /** What is wrong with a resource indicator; null when nothing is. */
    public static String problem(String resource) {
        if (resource == null || resource.length() > 2000) {
            return "must be an absolute URI of at most 2000 characters";
        }
        try {
            URI uri = new URI(resource);
            if (!uri.isAbsolute() || uri.isOpaque() || uri.getHost() == null) {
                return "must be an absolute URI";
            }
            if (uri.getRawFragment() != null) {
                return "must not have a fragment";
            }
            return null;
        } catch (URISyntaxException e) {
            return "must be an absolute URI";
        }
    }

    static OAuthException invalidTarget(String description) {
        return new OAuthException(OAuthError.INVALID_TARGET, description);
    }

    private static String clip(String s) {
        String clipped = s.length() > 80 ? s.substring(0, 80) + "…" : s;
        return clipped.replaceAll("\\p{Cntrl}", "?");
    }
}
