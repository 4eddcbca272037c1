package org.ziggurat.auth.pages;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.authorization.LogoutService;
import org.ziggurat.auth.oauth.OAuthException;

import java.util.Map;

/**
 * OpenID Connect RP-Initiated Logout: the end_session_endpoint. A relying party sends the browser
 * here (GET or POST); with an ID token of the person signed in the session ends at once, otherwise
 * the person confirms on a page (CSRF-protected by the session's token). Then back to the
 * application's registered post_logout_redirect_uri, or a signed-out page.
 */
@Tag(name = "OAuth")
@Path("/oauth/logout")
public class LogoutResource {

    private final LogoutService logout;
    private final LoginSessions sessions;
    private final LogoutPages pages;
    private final PageForms forms;

    LogoutResource(LogoutService logout, LoginSessions sessions, LogoutPages pages, PageForms forms) {
        this.logout = logout;
        this.sessions = sessions;
        this.pages = pages;
        this.forms = forms;
    }

    @Operation(operationId = "logout", summary = "Sign out (OpenID Connect RP-initiated logout)",
    description = "Ends the person's Ziggurat session. With an id_token_hint of the person signed in it ends at once; "
    + "otherwise the person confirms on a page that names where they will go. A post_logout_redirect_uri must be "
    + "registered by the application (named by the hint or by client_id); the browser goes back there with state at "
    + "once only with a valid id_token_hint, else after the person's choice.")
    @SecurityRequirementsSet
    @Parameter(name = "id_token_hint", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING),
    description = "An ID token this server issued (expired ones too).")
    @Parameter(name = "post_logout_redirect_uri", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "client_id", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "state", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The confirmation page, or the signed-out page.",
    content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "303", description = "Signed out: to the post_logout_redirect_uri (with a valid "
    + "id_token_hint, or once the person confirmed).",
    headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "An error page: a hint or redirect URI that is not good.",
    content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @GET
    public Uni<Response> get(@Context UriInfo uri, @Parameter(hidden = true) @CookieParam(LoginSessions.COOKIE) String cookie) {
        QueryParameters.Read read = QueryParameters.read(uri, LogoutService.Request.PARAMETERS);
        if (read.repeated() != null) {
            return PageForms.page(forms.error(400, "The parameter '" + read.repeated() + "' is repeated."));
        }
        return handle(read.values(), null, null, cookie, uri);
    }

    @Operation(operationId = "logoutByForm", summary = "Sign out (form)",
    description = "The same as GET with the parameters in a form; the confirmation page posts here too (action=logout "
    + "with its CSRF field).")
    @SecurityRequirementsSet
    @RequestBody(content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = AuthorizeDocs.LogoutForm.class)))
    @APIResponse(responseCode = "200", description = "The confirmation page, or the signed-out page.",
    content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "303", description = "Signed out: to the post_logout_redirect_uri.",
    headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "An error page.",
    content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "403", description = "A confirmation that this site did not send.",
    content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @POST
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> post(String body, @Context UriInfo uri, @Context HttpHeaders headers, @Context HttpServerRequest http) {
        PagePost post = new PagePost(body, uri, headers, http);
        return forms.take(post, form -> {
            Map<String, String> params;
            try {
                params = form.only(LogoutService.Request.PARAMETERS);
            } catch (OAuthException e) {
                // A browser's page, not an OAuth client's answer: the error page.
                return PageForms.page(forms.error(400, e.getMessage()));
            }
            return handle(params, form.get("action"), PageForms.token(form), post.sessionCookie(), uri);
        });
    }

    private Uni<Response> handle(Map<String, String> params, String action, String csrf, String cookie, UriInfo uri) {
        var request = new LogoutService.Request(params.get("id_token_hint"), params.get("post_logout_redirect_uri"),
                params.get("client_id"), params.get("state"));
        return logout.check(request).chain(checked -> {
            if (checked.problem() != null) {
                return PageForms.page(forms.error(400, checked.problem()));
            }
            return sessions.find(cookie).chain(session -> {
                if (session == null) {
                    // Nobody to sign out. Only a valid id_token_hint lets the browser go straight
                    // back; a client_id alone could send anyone anywhere the client registered
                    // (an open redirect): the person chooses on our page.
                    return Uni.createFrom().item(checked.hintSubject() != null
                            ? pages.signedOut(checked.returnTo(), uri)
                            : pages.signedOutWithChoice(checked.returnTo(), uri));
                }
                if ("logout".equals(action)) {
                    return forms.withToken(csrf, session, "-", PageForms.Unsent.LOGOUT,
                            () -> logout.end(cookie, session, checked).map(done -> pages.signedOut(checked.returnTo(), uri)));
                }
                if (logout.endsWithoutAsking(checked, session)) {
                    return logout.end(cookie, session, checked).map(done -> pages.signedOut(checked.returnTo(), uri));
                }
                return Uni.createFrom().item(pages.logoutConfirmation(session, params, checked.returnTo(), uri));
            });
        });
    }
}
