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
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.platform.rest.problem.FailureKinds;

/**
 * The page a verification link opens. A GET only shows a Confirm button (mail scanners and link
 * previews follow links: they must not confirm anything); the POST proves the address, at the
 * directory, with the token the link carried. No session is needed: the token is the proof.
 */
@Tag(name = "Account")
@Path("/account/email/verification")
public class EmailVerificationResource {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final DirectoryClient directory;
    private final Template page;
    private final PageForms forms;

    EmailVerificationResource(@RestClient DirectoryClient directory, @Location("email_verification") Template page,
            PageForms forms) {
        this.directory = directory;
        this.page = page;
        this.forms = forms;
    }

    @Operation(operationId = "showEmailVerification", summary = "The page a verification link opens (browser)",
    description = "Shows a Confirm button for the link's token; changes nothing.")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The page.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "410", description = "A link without a token.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @GET
    public Response show(@QueryParam("token") String token, @Context UriInfo uri) {
        return render(token == null || token.isBlank() ? "gone" : "confirm", token, null, null, uri,
                token == null || token.isBlank() ? 410 : 200);
    }

    @Operation(operationId = "confirmEmailVerification", summary = "Confirm an address (the page's form)",
    description = "Proves the sign-in address that the token was mailed to: 200 with the address confirmed; 410 when the "
    + "link was used already, has expired, or is for an address the person no longer has.")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "Confirmed.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "410", description = "The link no longer works.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "A form that is no form.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "503", description = "The directory cannot be asked for a moment.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @RequestBody(required = true, content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = AuthorizeDocs.EmailVerificationForm.class)))
    @POST
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> confirm(String body, @Context UriInfo uri, @Context HttpHeaders headers,
            @Context HttpServerRequest http) {
        return forms.take(new PagePost(body, uri, headers, http), form -> confirm(form.get("token"), uri));
    }

    private Uni<Response> confirm(String token, UriInfo uri) {
        if (token == null || token.isBlank()) {
            return Uni.createFrom().item(render("gone", null, null, null, uri, 410));
        }
        return directory.verifyEmail(new DirectoryClient.EmailToken(token))
                .map(verified -> {
                    EVENTS.infof("event=email_verified person_id=%d", verified.personId());
                    return render("done", null, verified.email(), verified.username(), uri, 200);
                })
                .onFailure(DirectoryClient.LinkGone.class).recoverWithItem(() -> render("gone", null, null, null, uri, 410))
                .onFailure(FailureKinds::dependencyUnavailable).recoverWithItem(() -> forms.error(503,
                        "We cannot confirm addresses for a moment. Go back and press Confirm again in a minute."));
    }

    private Response render(String state, String token, String email, String username, UriInfo uri, int status) {
        return PageView.of(page.data("state", state).data("token", token).data("email", email).data("username", username)
                .data("security", PagePaths.apiPath(uri, AccountPages.PATH)), uri)
                .posting("/account/email/verification").answer(status).build();
    }
}
