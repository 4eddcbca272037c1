package org.ziggurat.gateway;

import io.vertx.core.MultiMap;

import java.net.URI;
import java.util.Optional;

/**
 * The platform API as a protected resource: its identifier (RFC 8707, the audience of the
 * platform's tokens) and where its metadata is (RFC 9728 §3.1: the well-known name inserted
 * between the host and the identifier's path).
 */
public record ProtectedResource(String identifier, String metadataUrl, String metadataPath) {

    /** The well-known name of RFC 9728 §3. */
    public static final String WELL_KNOWN = "/.well-known/oauth-protected-resource";
    private static final String CHALLENGE = "WWW-Authenticate";

    public static ProtectedResource of(GatewayConfig config) {
        return of(config.resource(), config.publicBaseUrl());
    }

    /** {@code resource}: the setting that names the identifier; by default the public base URL. */
    static ProtectedResource of(Optional<String> resource, URI publicBaseUrl) {
        String identifier = resource.orElse(trimmed(publicBaseUrl.toString()));
        URI uri = URI.create(identifier);
        // RFC 9728 takes a URL: an identifier that is none (a URN) leaves the address to the public base URL.
        URI at = uri.getRawAuthority() != null ? uri : publicBaseUrl;
        String path = at.getRawPath() == null ? "" : trimmed(at.getRawPath());
        String metadataPath = WELL_KNOWN + path;
        return new ProtectedResource(identifier, at.getScheme() + "://" + at.getRawAuthority() + metadataPath, metadataPath);
    }

    /**
     * A 401's challenge with the metadata's address as a parameter (RFC 9728 §5.1), once: how a
     * refused client learns which authorization server issues tokens for the API.
     */
    public String withMetadata(String challenge) {
        String parameter = "resource_metadata=\"" + metadataUrl + "\"";
        if (challenge == null || challenge.isBlank()) {
            return "Bearer " + parameter;
        }
        String given = challenge.trim();
        if (given.contains("resource_metadata=")) {
            return given;
        }
        return given.indexOf(' ') < 0 ? given + " " + parameter : given + ", " + parameter;
    }

    /** The same in a 401's headers, where a service's challenge is. */
    public void challengeIn(MultiMap headers) {
        headers.set(CHALLENGE, withMetadata(headers.get(CHALLENGE)));
    }

    /** The public base URL without a terminating slash: auth-service's issuer. */
    public static String trimmed(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
