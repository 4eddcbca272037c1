package org.ziggurat.auth.tokens;

import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.clients.ApplicationRow;

import java.util.List;

/**
 * Whether an access token is a JWT (RFC 9068) or opaque: the resource it is meant for decides, the
 * client only where no resource does. A token whose audience has a resource that wants JWTs is one
 * (a resource that wants opaque tokens can still introspect it; one that wants JWTs cannot read an
 * opaque one); else one whose resources want opaque tokens is opaque. The platform's API wants
 * what {@code ziggurat.auth.platform-access-token-format} says, and unset leaves it to the
 * application ({@code access_token_format}), as do configured resource servers without a format.
 */
@ApplicationScoped
public class AccessTokenFormat {

    public static final String JWT = "jwt";
    public static final String OPAQUE = "opaque";
    public static final List<String> FORMATS = List.of(JWT, OPAQUE);

    private final ResourceServers resources;
    private final String platformFormat;

    @jakarta.inject.Inject
    AccessTokenFormat(AuthConfig config, ResourceServers resources) {
        this(resources, config.platformAccessTokenFormat().orElse(null));
    }

    AccessTokenFormat(ResourceServers resources, String platformFormat) {
        if (platformFormat != null && !FORMATS.contains(platformFormat)) {
            throw new IllegalStateException("ziggurat.auth.platform-access-token-format is jwt or opaque, not " + platformFormat);
        }
        this.resources = resources;
        this.platformFormat = platformFormat;
    }

    /** Whether the access token of {@code clientOrNull} for {@code audience} (null: the platform's API) is a JWT. */
    public boolean jwt(ApplicationRow clientOrNull, List<String> audience) {
        return jwt(clientOrNull != null && clientOrNull.jwtAccessTokens(), audience);
    }

    boolean jwt(boolean clientWantsJwt, List<String> audience) {
        boolean anyOpaque = false;
        for (String resource : resources.stated(audience)) {
            String wanted = resource.equals(resources.platform()) ? platformFormat : format(resource);
            if (JWT.equals(wanted)) {
                return true;
            }
            anyOpaque |= OPAQUE.equals(wanted);
        }
        return !anyOpaque && clientWantsJwt;
    }

    private String format(String resource) {
        ResourceServers.Server server = resources.byIdentifier(resource);
        return server == null ? null : server.format();
    }
}
