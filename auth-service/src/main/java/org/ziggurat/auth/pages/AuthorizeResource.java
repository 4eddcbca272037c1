package org.ziggurat.auth.pages;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.platform.rest.openapi.ApiContract;
import org.ziggurat.platform.rest.openapi.ApiErrors;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.auth.authorization.AuthorizationRequest;
import org.ziggurat.auth.authorization.AuthorizationCodes;
import org.ziggurat.auth.authorization.AuthorizationRequests;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.clients.ClientCredentials;
import org.ziggurat.auth.oauth.BearerTokens;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.OAuthForm;

import java.net.URI;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The authorization endpoint (RFC 6749 §3.1, §4.1) over HTTP. In a browser: a login page when
 * there is no session, then a consent page (skipped when the person already granted these
 * scopes), then a redirect with the code. By API (the spec's POST form): the resource owner's own
 * access token authorizes the code. This class reads requests; the pages' steps are
 * {@link AuthorizeSteps}', what is decided {@link AuthorizationRequests}' and {@link AuthorizationCodes}'.
 */
@Tag(name = "OAuth")
@Path("/oauth/authorize")
public class AuthorizeResource {

    private static final Pattern CODE = Pattern.compile("zac_[A-Za-z0-9_-]{43}");

    private final AuthorizeSteps steps;
    private final AuthorizationCodes codes;
    private final ClientAnswers answers;
    private final PageForms forms;

    AuthorizeResource(AuthorizeSteps steps, AuthorizationCodes codes, ClientAnswers answers, PageForms forms) {
        this.steps = steps;
        this.codes = codes;
        this.answers = answers;
        this.forms = forms;
    }

    @Operation(operationId = "authorize", summary = "Start an authorization (browser)",
    description = "The authorization endpoint (RFC 6749 section 3.1) for a person's browser: the login page when there is "
    + "no session, then the consent page (skipped when the person already granted these scopes), then a redirect "
    + "to the client's redirect_uri with code and state. A bad client or redirect URI is an error page, never a redirect.")
    @SecurityRequirementsSet
    @Parameter(name = "response_type", in = ParameterIn.QUERY, required = true, schema = @Schema(enumeration = "code"))
    @Parameter(name = "client_id", in = ParameterIn.QUERY, required = true, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "redirect_uri", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING),
    description = "One of the application's redirect URIs, exactly; may be left out when it has one.")
    @Parameter(name = "scope", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING), description = "Space-delimited.")
    @Parameter(name = "state", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "code_challenge", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING),
    description = "PKCE (RFC 7636); required of public clients.")
    @Parameter(name = "code_challenge_method", in = ParameterIn.QUERY, schema = @Schema(enumeration = "S256"))
    @Parameter(name = "nonce", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING, maxLength = 255),
    description = "OpenID Connect: echoed in the ID token; good for one code per application.")
    @Parameter(name = "prompt", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING),
    description = "OpenID Connect: none (no page: login_required or consent_required back to a verified application, "
    + "or one the person consented to; for any other a page that names where the answer would go), or login, consent, "
    + "select_account, space-delimited.")
    @Parameter(name = "max_age", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.INTEGER, minimum = "0"),
    description = "OpenID Connect: the oldest sign-in, in seconds, that the client accepts.")
    @Parameter(name = "request_uri", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING),
    description = "RFC 9126: a pushed request's request_uri (with client_id); its parameters are the request's.")
    @Parameter(name = "request", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING),
    description = "OpenID Connect Core 6.1: a request object, a JWT signed with a key the application registered (jwks or "
    + "jwks_uri; never alg none); its parameters take precedence over those beside it.")
    @Parameter(name = "claims", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING, maxLength = 4096),
    description = "OpenID Connect Core 5.5: a JSON object naming claims for the ID token (id_token) and userinfo; those the "
    + "granted scopes give are added to the ID token (userinfo answers all of them anyway); id_token.sub with a value "
    + "answers only for that person; id_token.acr with values asks for that class of sign-in, as acr_values.")
    @APIResponse(responseCode = "200", description = "The login or consent page.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "302", description = "To the redirect URI, with code, state and iss (RFC 9207), or an error.",
    headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "An error page: the request cannot be trusted to redirect.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @GET
    public Uni<Response> authorize(@Context UriInfo uri, @Parameter(hidden = true) @CookieParam(LoginSessions.COOKIE) String sessionCookie) {
        QueryParameters.Read read = QueryParameters.read(uri, AuthorizationRequest.PARAMETERS);
        if (read.repeated() != null) {
            return PageForms.page(forms.error(400, "The parameter '" + read.repeated() + "' is repeated."));
        }
        return steps.checked(read.values(), request -> steps.show(request, sessionCookie, uri));
    }

    @Operation(operationId = "approveAuthorization", summary = "Authorize a code (API form, or the pages' forms)",
    description = "An authorization request may be posted as a form (OpenID Connect Core 3.1.2.1): without action, "
    + "username or a token, it is the same request as GET /oauth/authorize. The spec's API form: the resource owner's access token (Authorization header) authorizes a code for the "
    + "client, which the answer redirects to /oauth/authorize/{code}; the token may not hold more than the code "
    + "asks for, and must be the client's own or a first-party token with the scopes asked. The login and "
    + "consent pages post here too (action = login, approve or deny), with their CSRF fields.")
    @SecurityRequirement(name = ApiContract.OAUTH2)
    @SecurityRequirementsSet
    @RequestBody(required = true, content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = AuthorizeDocs.AuthorizationForm.class)))
    @APIResponse(responseCode = "200", description = "A page: the login page again, or the consent page.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "302", description = "To /oauth/authorize/{code} (API form), or to the client's redirect URI.",
    headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)), content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "303", description = "After the login form: on to the consent step.",
    headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "An invalid request: an OAuth error (API form) or an error page.", content = {
    @Content(mediaType = "application/json", schema = @Schema(ref = ApiErrors.OAUTH_ERROR_SCHEMA)), @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING))})
    @APIResponse(responseCode = "401", description = "No valid access token (API form), or a failed sign-in (page).", content = {
    @Content(mediaType = "application/json", schema = @Schema(ref = ApiErrors.OAUTH_ERROR_SCHEMA)), @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING))})
    @APIResponse(responseCode = "403", description = "The token may not authorize this code (API form), or a form "
    + "that this site did not send (page).", content = {
    @Content(mediaType = "application/json", schema = @Schema(ref = ApiErrors.OAUTH_ERROR_SCHEMA)), @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING))})
    @APIResponse(responseCode = "429", description = "Too many sign-in attempts (page).", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @POST
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> post(String body, @Parameter(hidden = true) @HeaderParam("Authorization") String authorizationHeader,
            @Context UriInfo uri, @Context HttpHeaders headers, @Context HttpServerRequest http) {
        PagePost post = new PagePost(body, uri, headers, http);
        OAuthForm form = OAuthForm.parse(post.contentType(), body);
        String action = form.get("action");
        if (action == null && form.get("username") == null && BearerTokens.from(authorizationHeader) == null) {
            return postedRequest(form, headers, uri);
        }
        if (action == null) {
            return approveByApi(form, authorizationHeader, uri);
        }
        Map<String, String> params = form.only(AuthorizationRequest.PARAMETERS);
        // The pages' forms carry the request back in hidden fields, which the browser (or anyone
        // posting) may change: each step checks it again, as the first one did.
        return steps.checked(params, request -> {
            SignInForm.Flow flow = steps.flow(request, uri);
            return forms.signInOr(post, form, () -> flow, own -> switch (own) {
                case "approve", "deny" -> forms.signedIn(post, PageForms.token(form), flow, PageForms.Unsent.CONSENT,
                        session -> steps.decide(request, own.equals("approve"), session, uri));
                default -> forms.unknownAction();
            });
        });
    }

    /**
     * An authorization request posted (OpenID Connect Core §3.1.2.1: the server supports GET and
     * POST) is the same request as the GET: no page action, no person named, no token. The API form
     * is told apart by what it carries (username and the person's token).
     */
    private Uni<Response> postedRequest(OAuthForm form, HttpHeaders headers, UriInfo uri) {
        Map<String, String> params;
        try {
            params = form.only(AuthorizationRequest.PARAMETERS);
        } catch (OAuthException repeated) {
            return PageForms.page(forms.error(400, repeated.getMessage()));
        }
        jakarta.ws.rs.core.Cookie session = headers.getCookies().get(LoginSessions.COOKIE);
        return steps.checked(params, request -> steps.show(request, session == null ? null : session.getValue(), uri));
    }

    /**
     * The spec's API form: {@code response_type=code, client_id, client_secret, redirect_uri,
     * username} with the resource owner's access token in the Authorization header.
     */
    private Uni<Response> approveByApi(OAuthForm form, String authorizationHeader, UriInfo uri) {
        if (!"code".equals(form.get("response_type"))) {
            throw new OAuthException(OAuthError.UNSUPPORTED_RESPONSE_TYPE, "response_type must be code.");
        }
        String username = form.require("username");
        String redirectUri = form.require("redirect_uri");
        String bearer = BearerTokens.from(authorizationHeader);
        if (bearer == null) {
            throw new OAuthException(OAuthError.TOKEN_MISSING, "The resource owner's access token is required.");
        }
        var approval = new AuthorizationCodes.ApiApproval(new ClientCredentials.Claimed(form.require("client_id"),
                form.get("client_secret"), false), username, redirectUri, form.get("scope"), form.get("state"),
                form.get("code_challenge"), form.get("code_challenge_method"));
        return codes.approveByApi(approval, bearer).map(approved -> answers.codeFound(approved.request(),
                approved.code(), uri));
    }

    /** The out-of-band page: the code in {@code #authorization_code}. */
    @Operation(operationId = "showAuthorizationCode", summary = "Show an authorization code (out of band)",
    description = "The page for urn:ietf:wg:oauth:2.0:oob: the code in the element with id authorization_code.")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The page.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "404", description = "No such code: an error page.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @GET
    @Path("/{code}")
    public Response showCode(@PathParam("code") String codeValue, @Context UriInfo uri) {
        if (codeValue == null || !CODE.matcher(codeValue).matches()) {
            return forms.error(404, "This is not an authorization code.");
        }
        return answers.code(codeValue, uri);
    }

    /** The spec's DELETE: revokes an access token's authorization, then back to the client's redirect URI. */
    @Operation(operationId = "deleteAuthorization", summary = "Delete an authorization",
    description = "The spec's DELETE: with the client's credentials, deletes the access token's authorization, "
    + "then redirects to the client's redirect URI.")
    @SecurityRequirementsSet
    @RequestBody(required = true, content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = AuthorizeDocs.AuthorizationDeletion.class)))
    @APIResponse(responseCode = "303", description = "Deleted: to the redirect URI.",
    headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", ref = ApiErrors.OAUTH_BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiErrors.OAUTH_UNAUTHORIZED)
    @DELETE
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> revokeAuthorization(String body, @Parameter(hidden = true) @HeaderParam("Content-Type") String contentType) {
        OAuthForm form = OAuthForm.parse(contentType, body);
        String accessToken = form.require("access_token");
        String redirectUri = form.require("redirect_uri");
        String username = form.get("username");
        var claimed = new ClientCredentials.Claimed(form.require("client_id"), form.get("client_secret"), false);
        return codes.revoke(claimed, accessToken, redirectUri, username)
                .map(done -> Response.seeOther(URI.create(redirectUri)).header("Cache-Control", "no-store").build());
    }
}
