package org.ziggurat.auth.clients;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import io.quarkus.runtime.annotations.RegisterForReflection;
import com.fasterxml.jackson.annotation.JsonInclude;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.platform.rest.http.PublicUrls;

import java.time.Instant;
import java.util.List;

public final class ApplicationViews {

    private ApplicationViews() {
    }

    /** {@code client_secret} appears only in the answers that create or reset it. */
    @RegisterForReflection
    public record Application(long id, String name, String clientId,
            @JsonInclude(JsonInclude.Include.NON_NULL) String clientSecret, List<String> redirectUris, String scopes,
            boolean confidential, boolean passwordGrant, List<String> postLogoutRedirectUris, String idTokenSignedResponseAlg,
            boolean requirePushedAuthorizationRequests,
            @Schema(description = "Whether one of the platform's operators checked the application: only then (or after the "
                    + "person's consent) does prompt=none answer without a page, and the pages show it unmarked.")
            boolean verified,
            @Schema(description = "Seconds an authorization of the application lasts from its grant, however often its "
                    + "refresh tokens rotate; absent: the platform's (90 days by default).")
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer refreshTokenAbsoluteLifetime,
            @Schema(description = "opaque (the default: checked by introspection) or jwt (RFC 9068: signed, checked "
                    + "against the JWKS by any resource server).", enumeration = {"opaque", "jwt"})
            String accessTokenFormat,
            @Schema(description = "Whether every token request must carry a DPoP proof (RFC 9449), so that every token "
                    + "is bound to the client's key.")
            boolean dpopBoundAccessTokens,
            @Schema(description = "Whether the application may exchange a person's token it was given for a narrower one "
                    + "for another resource (RFC 8693).")
            boolean tokenExchange,
            String url, Instant createdAt, Instant updatedAt) {
    }

    public static Application of(ApplicationRow row, String secretOrNull, PublicUrls urls) {
        return new Application(row.id(), row.name(), row.clientId(), secretOrNull, row.redirectUris(),
                Scopes.display(row.scopes()), row.confidential(), row.passwordGrant(), row.postLogoutRedirectUris(),
                row.idTokenAlg(), row.requirePushedRequests(), row.verified(), row.refreshTokenAbsoluteLifetime(),
                row.accessTokenFormat(), row.dpopBoundAccessTokens(), row.tokenExchange(), urls.api("/applications/" + row.id()), row.createdAt(), row.updatedAt());
    }
}
