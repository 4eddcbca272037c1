package org.ziggurat.auth.grants;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.ziggurat.auth.tokens.GrantRepository;
import org.ziggurat.directory.client.DirectoryClient;
import io.quarkus.runtime.annotations.RegisterForReflection;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.platform.permissions.UserPermissions;

import java.time.Instant;
import java.util.List;

/** The spec's Grant, App summary, Authorization, User permissions and User accessor. */
public final class GrantViews {

    private GrantViews() {
    }

    @RegisterForReflection
    public record AppSummary(String url, String name, String clientId) {
    }

    @RegisterForReflection
    public record Grant(long id, String url, AppSummary app, Instant createdAt, List<String> scopes) {
    }

    @RegisterForReflection
    @Schema(name = "ExtraPermissions")
    public record Extra(boolean manage, boolean comment, boolean publish) {
    }

    @RegisterForReflection
    public record Permissions(boolean create, boolean read, boolean update, boolean destroy, Extra extra) {
    }

    @RegisterForReflection
    public record UserAccessor(String username, long id, String email, String displayName,
            @JsonProperty("image_thumb_50") String imageThumb50) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @RegisterForReflection
    public record Authorization(long id, String url, List<String> scopes, String token, Permissions userPermissions,
            @JsonInclude(JsonInclude.Include.ALWAYS) @Schema(nullable = true, description = "Null for a token of no application (a first-party password grant).") AppSummary app,
            Instant updatedAt, Instant createdAt,
            List<JsonNode> projectAccessors, List<UserAccessor> userAccessors) {
    }

    public static AppSummary app(String clientId, String name, PublicUrls urls) {
        return clientId == null ? null
                : new AppSummary(urls.api("/authorizations/clients/" + clientId), name, clientId);
    }

    public static Grant grant(GrantRepository.GrantRow row, PublicUrls urls) {
        return new Grant(row.id(), urls.api("/applications/grants/" + row.id()), app(row.clientId(), row.appName(), urls),
                row.createdAt(), Scopes.list(row.scopes()));
    }

    public static Permissions permissions(UserPermissions p) {
        return new Permissions(p.create(), p.read(), p.update(), p.destroy(), new Extra(p.manage(), p.comment(), p.publish()));
    }

    public static Authorization authorization(GrantRepository.AuthorizationRow row, UserPermissions permissions,
            PublicUrls urls) {
        return new Authorization(row.id(), urls.api("/authorizations/" + row.id()), Scopes.list(row.scopes()), "",
                permissions(permissions), app(row.clientId(), row.appName(), urls), row.updatedAt(), row.createdAt(),
                null, null);
    }

    public static UserAccessor accessor(DirectoryClient.PersonSummary p) {
        return new UserAccessor(p.username(), p.id(), p.email() == null ? "" : p.email(), p.displayName(), p.imageThumb50());
    }
}
