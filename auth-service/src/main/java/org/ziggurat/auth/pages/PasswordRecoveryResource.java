package org.ziggurat.auth.pages;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.auth.authorization.PasswordRecovery;
import org.ziggurat.auth.http.CallerAddress;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.platform.rest.problem.FailureKinds;

/**
 * "Forgot your password?": asking for a link (the same answer whether or not the account exists),
 * and the page the link opens, whose GET only shows the form. Neither needs a session; the link's
 * token is the proof. Setting the password signs the person out everywhere (PasswordRecovery).
 */
@Tag(name = "Account")
@Path("/account/password")
public class PasswordRecoveryResource {

    private final PasswordRecovery recovery;
    private final Template page;
    private final PageForms forms;

    PasswordRecoveryResource(PasswordRecovery recovery, @Location("password_recovery") Template page, PageForms forms) {
        this.recovery = recovery;
        this.page = page;
        this.forms = forms;
    }

    @Operation(operationId = "showPasswordRecovery", summary = "Forgot your password? (browser)",
    description = "The form that asks for a link to set a new password.")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The page.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @GET
    @Path("/recovery")
    public Response ask(@Context UriInfo uri) {
        return render("ask", null, null, null, uri, 200);
    }

    @Operation(operationId = "askPasswordRecovery", summary = "Ask for a link to set a new password (the page's form)",
    description = "login: a username or an e-mail address. The same answer whether or not an account has it; the account's "
    + "address gets a link that works once, for 30 minutes. 429 when this address asked too often.")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "Asked.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "429", description = "Too many asks from this address.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "A form that is no form, or without a login.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "503", description = "The directory cannot be asked for a moment.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @RequestBody(required = true, content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = AuthorizeDocs.PasswordRecoveryForm.class)))
    @POST
    @Path("/recovery")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> asked(String body, @Context UriInfo uri, @Context HttpHeaders headers, @Context HttpServerRequest http) {
        return forms.take(new PagePost(body, uri, headers, http), form -> ask(form.get("login"), http, uri));
    }

    private Uni<Response> ask(String login, HttpServerRequest http, UriInfo uri) {
        if (login == null || login.isBlank()) {
            return Uni.createFrom().item(render("ask", null, null, null, uri, 400));
        }
        return recovery.ask(login, CallerAddress.of(http))
                .map(v -> render("asked", null, null, null, uri, 200))
                .onFailure(DirectoryClient.PasswordThrottled.class).recoverWithItem(e -> Response.fromResponse(
                        render("throttled", null, null, null, uri, 429))
                        .header("Retry-After", ((DirectoryClient.PasswordThrottled) e).retryAfter()).build())
                .onFailure(FailureKinds::dependencyUnavailable).recoverWithItem(() -> forms.error(503,
                        "We cannot send links for a moment. Try again in a minute."));
    }

    @Operation(operationId = "showPasswordReset", summary = "The page a recovery link opens (browser)",
    description = "The form for the new password; changes nothing.")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The page.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "410", description = "A link without a token.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @GET
    @Path("/reset")
    public Response resetForm(@QueryParam("token") String token, @Context UriInfo uri) {
        boolean none = token == null || token.isBlank();
        return render(none ? "gone" : "reset", token, null, null, uri, none ? 410 : 200);
    }

    @Operation(operationId = "resetPassword", summary = "Set a new password with a recovery link (the page's form)",
    description = "token (the link's), password and password_again. Ends every session and revokes every token of the "
    + "person. 422 when the password is refused (too short, the two differ), 410 when the link no longer works.")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "Set.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "410", description = "The link no longer works.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "422", description = "The password is refused.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "A form that is no form.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "503", description = "The directory cannot be asked for a moment.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @RequestBody(required = true, content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = AuthorizeDocs.PasswordResetForm.class)))
    @POST
    @Path("/reset")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> reset(String body, @Context UriInfo uri, @Context HttpHeaders headers, @Context HttpServerRequest http) {
        return forms.take(new PagePost(body, uri, headers, http),
                form -> reset(form.get("token"), form.get("password"), form.get("password_again"), http, uri));
    }

    private Uni<Response> reset(String token, String password, String again, HttpServerRequest http, UriInfo uri) {
        if (token == null || token.isBlank()) {
            return Uni.createFrom().item(render("gone", null, null, null, uri, 410));
        }
        if (password == null || !password.equals(again)) {
            return Uni.createFrom().item(render("reset", token, "The two passwords differ.", null, uri, 422));
        }
        return recovery.reset(token, password, CallerAddress.of(http))
                .map(person -> render("done", null, null, person.username(), uri, 200))
                .onFailure(DirectoryClient.Invalid.class).recoverWithItem(() -> render("reset", token,
                        "Choose a password of 10 to 128 characters.", null, uri, 422))
                .onFailure(DirectoryClient.LinkGone.class).recoverWithItem(() -> render("gone", null, null, null, uri, 410))
                .onFailure(FailureKinds::dependencyUnavailable).recoverWithItem(() -> forms.error(503,
                        "We cannot set passwords for a moment. Go back and try again in a minute."));
    }

    private Response render(String state, String token, String error, String username, UriInfo uri, int status) {
        return PageView.of(page.data("state", state).data("token", token).data("error", error).data("username", username)
                .data("askAgain", PagePaths.apiPath(uri, "/account/password/recovery"))
                .data("security", PagePaths.apiPath(uri, AccountPages.PATH)), uri)
                .posting(state.equals("reset") ? "/account/password/reset" : "/account/password/recovery").answer(status).build();
    }
}
