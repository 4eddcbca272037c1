package org.ziggurat.auth.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.Issuer;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.clients.ClientDescriptions;
import org.ziggurat.auth.clients.ClientRegistration;
import org.ziggurat.auth.clients.PlatformName;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.oauth.BearerTokens;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.auth.tokens.LiveAccessTokens;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.ziggurat.platform.token.ScopeNames;

/**
 * The client registration endpoint (RFC 7591) and the client configuration endpoint (RFC 7592).
 * Registering needs an access token with the admin scope (the application is that person's, as
 * with POST /applications) or the configured initial access token; managing a registration
 * needs its registration access token.
 */
@Tag(name = "OAuth")
@Path("/oauth/register")
public class RegistrationResource {

    /** Nesting and size are bounded by the body limits; the metadata is a flat object anyway. */
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    private final ClientRegistration registration;
    private final LiveAccessTokens liveTokens;
    private final AuthConfig config;

    private final PlatformName platformName;

    RegistrationResource(ClientRegistration registration, LiveAccessTokens liveTokens, AuthConfig config,
            PlatformName platformName) {
        this.platformName = platformName;
        this.registration = registration;
        this.liveTokens = liveTokens;
        this.config = config;
    }

    @Operation(operationId = "registerClient", summary = "Register a client (RFC 7591)",
    description = "A tool registers itself: client metadata in, client_id (and client_secret unless "
    + "token_endpoint_auth_method is none) and a registration access token out. The same validation as "
    + "POST /applications; the application belongs to the token's person. Errors: invalid_redirect_uri, "
    + "invalid_client_metadata.")
    @SecurityRequirement(name = ApiContract.OAUTH2, scopes = ScopeNames.ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = "application/json",
    schema = @Schema(implementation = RegistrationDocs.ClientMetadataInput.class)))
    @APIResponse(responseCode = "201", description = "Registered.", content = @Content(mediaType = "application/json",
    schema = @Schema(implementation = RegistrationDocs.ClientInformation.class)))
    @APIResponse(responseCode = "400", ref = ApiErrors.OAUTH_BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiErrors.OAUTH_UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiErrors.OAUTH_FORBIDDEN)
    @POST
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Response> register(String body, @Parameter(hidden = true) @HeaderParam("Content-Type") String contentType,
            @Parameter(hidden = true) @HeaderParam("Authorization") String authorization) {
        JsonNode metadata = metadata(contentType, body);
        String bearer = BearerTokens.from(authorization);
        if (bearer == null) {
            throw new OAuthException(OAuthError.TOKEN_MISSING, "An access token with the admin scope, or the initial "
                    + "access token, is required.");
        }
        return owner(bearer).chain(who -> registration.register(who.owner(), who.operator(), metadata)).map(registered -> {
            Map<String, Object> answer = new LinkedHashMap<>(ClientDescriptions.describe(registered.app()));
            if (registered.secret() != null) {
                answer.put("client_secret", registered.secret());
                answer.put("client_secret_expires_at", 0);
            }
            answer.put("registration_access_token", registered.registrationToken());
            String uri = clientUri(registered.app());
            answer.put("registration_client_uri", uri);
            return OAuthResource.noStore(Response.created(URI.create(uri)).entity(answer));
        });
    }

    /**
     * Who owns what registers with this token: its person (admin scope), or the configured owner;
     * and whether an operator registers it: the initial access token, which the deployment's
     * operators hold, or an operator's own token (issued without a client, as {@code Operators} asks).
     */
    private Uni<Registrant> owner(String bearer) {
        var initial = config.registration().initialAccessToken();
        if (initial.isPresent() && TokenCrypto.sameValue(bearer, initial.get())) {
            return Uni.createFrom().item(new Registrant(config.registration().owner().orElseThrow(), true));
        }
        return liveTokens.bearer(bearer).map(row -> {
            if (row == null || row.personId() == null) {
                throw new OAuthException(OAuthError.TOKEN_INVALID, "The access token is invalid, expired or revoked.");
            }
            if (!row.scopes().contains(ScopeNames.ADMIN)) {
                throw new OAuthException(OAuthError.INSUFFICIENT_SCOPE, "Registering a client needs the admin scope.");
            }
            return new Registrant(row.personId(), row.applicationId() == null && platformName.isOperator(row.personId()));
        });
    }

    private record Registrant(long owner, boolean operator) {
    }

    @Operation(operationId = "getClientRegistration", summary = "Read a client's registration (RFC 7592)",
    description = "With the registration access token: the metadata as registered, without the secret.")
    @SecurityRequirement(name = ApiContract.REGISTRATION_TOKEN)
    @APIResponse(responseCode = "200", description = "The registration.", content = @Content(mediaType = "application/json",
    schema = @Schema(implementation = RegistrationDocs.ClientInformation.class)))
    @APIResponse(responseCode = "401", ref = ApiErrors.OAUTH_UNAUTHORIZED)
    @GET
    @Path("/{clientId}")
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Response> read(@PathParam("clientId") String clientId,
            @Parameter(hidden = true) @HeaderParam("Authorization") String authorization) {
        return managed(clientId, authorization).map(app -> OAuthResource.noStore(Response.ok(described(app))));
    }

    @Operation(operationId = "updateClientRegistration", summary = "Change a client's registration (RFC 7592)",
    description = "With the registration access token: the whole metadata again, with client_id (and client_secret, if "
    + "sent, the current one). Whether the client is confidential cannot change.")
    @SecurityRequirement(name = ApiContract.REGISTRATION_TOKEN)
    @RequestBody(required = true, content = @Content(mediaType = "application/json",
    schema = @Schema(implementation = RegistrationDocs.ClientMetadataInput.class)))
    @APIResponse(responseCode = "200", description = "The changed registration.", content = @Content(mediaType = "application/json",
    schema = @Schema(implementation = RegistrationDocs.ClientInformation.class)))
    @APIResponse(responseCode = "400", ref = ApiErrors.OAUTH_BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiErrors.OAUTH_UNAUTHORIZED)
    @PUT
    @Path("/{clientId}")
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Response> update(@PathParam("clientId") String clientId, String body,
            @Parameter(hidden = true) @HeaderParam("Content-Type") String contentType,
            @Parameter(hidden = true) @HeaderParam("Authorization") String authorization) {
        return managed(clientId, authorization).chain(app -> registration.update(app, metadata(contentType, body)))
                .map(app -> OAuthResource.noStore(Response.ok(described(app))));
    }

    @Operation(operationId = "deleteClientRegistration", summary = "Delete a client's registration (RFC 7592)",
    description = "With the registration access token: the application goes, and every token it was issued.")
    @SecurityRequirement(name = ApiContract.REGISTRATION_TOKEN)
    @APIResponse(responseCode = "204", description = "Deleted.")
    @APIResponse(responseCode = "401", ref = ApiErrors.OAUTH_UNAUTHORIZED)
    @DELETE
    @Path("/{clientId}")
    public Uni<Response> delete(@PathParam("clientId") String clientId,
            @Parameter(hidden = true) @HeaderParam("Authorization") String authorization) {
        return managed(clientId, authorization).chain(registration::delete)
                .map(done -> Response.noContent().header("Cache-Control", "no-store").build());
    }

    /**
     * The client metadata of a request: a JSON object (RFC 7591 §3.1). Anything else is the
     * protocol's invalid_client_metadata, as every other error here is the protocol's.
     */
    private static JsonNode metadata(String contentType, String body) {
        if (contentType == null || !contentType.toLowerCase(java.util.Locale.ROOT).startsWith(MediaType.APPLICATION_JSON)) {
            throw new OAuthException(OAuthError.INVALID_CLIENT_METADATA, "The client metadata must be sent as application/json.");
        }
        if (body != null && body.length() > OAuthForm.MAX_BODY) {
            // As the other OAuth endpoints' forms: client metadata is a few hundred bytes.
            throw new OAuthException(OAuthError.INVALID_CLIENT_METADATA, "The client metadata is larger than "
                    + OAuthForm.MAX_BODY / 1024 + " KiB.");
        }
        try {
            JsonNode metadata = body == null || body.isBlank() ? null : JSON.readTree(body);
            if (metadata == null || !metadata.isObject()) {
                throw new OAuthException(OAuthError.INVALID_CLIENT_METADATA, "The client metadata must be a JSON object.");
            }
            return metadata;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new OAuthException(OAuthError.INVALID_CLIENT_METADATA, "The client metadata is not valid JSON.");
        }
    }

    /** RFC 7592 §2: an unknown client and a wrong token alike are 401, so that neither tells about the other. */
    private Uni<ApplicationRow> managed(String clientId, String authorization) {
        String bearer = BearerTokens.from(authorization);
        if (bearer == null) {
            throw new OAuthException(OAuthError.TOKEN_MISSING, "The registration access token is required.");
        }
        return registration.managedBy(clientId, bearer).map(app -> {
            if (app == null) {
                throw new OAuthException(OAuthError.TOKEN_INVALID, "The registration access token is not valid for this client.");
            }
            return app;
        });
    }

    private Map<String, Object> described(ApplicationRow app) {
        Map<String, Object> answer = new LinkedHashMap<>(ClientDescriptions.describe(app));
        answer.put("registration_client_uri", clientUri(app));
        return answer;
    }

    private String clientUri(ApplicationRow app) {
        return Issuer.of(config) + "/oauth/register/" + app.clientId();
    }
}
