package org.ziggurat.auth.pages;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.auth.authorization.AccountDetails;
import org.ziggurat.auth.authorization.AccountSecurity;
import org.ziggurat.auth.authorization.LinkedSignIns;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.platform.rest.problem.FailureKinds;

/**
 * The account page ({@code /account}) in a browser, with the sign-in session's cookie: the name
 * shown, the standard profile claims, whether the confirmed address is public, the sign-in address. A GET shows; each change is
 * a POST with the session's CSRF token; a new address needs the password again.
 */
@Tag(name = "Account")
@Path("/account")
public class AccountProfileResource {

    private final AccountDetails details;
    private final AccountForms forms;
    private final ProfilePages pages;
    private final PageForms pageForms;
    private final LinkedSignIns linkedSignIns;
    private final AccountSecurity security;

    AccountProfileResource(AccountDetails details, AccountForms forms, ProfilePages pages, PageForms pageForms,
            LinkedSignIns linkedSignIns, AccountSecurity security) {
        this.details = details;
        this.forms = forms;
        this.pages = pages;
        this.pageForms = pageForms;
        this.linkedSignIns = linkedSignIns;
        this.security = security;
    }

    @Operation(operationId = "showAccount", summary = "The account page (browser)",
    description = "The signed-in person's profile and sign-in address; the sign-in page when there is no session.")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The page, or the sign-in page.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "503", description = "The directory cannot be asked for a moment.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @GET
    public Uni<Response> show(@Parameter(hidden = true) @CookieParam(LoginSessions.COOKIE) String cookie, @Context UriInfo uri) {
        return forms.show(cookie, forms.flow(ProfilePages.PATH, uri), session -> page(session, null, null, 200, uri))
                .onFailure(FailureKinds::dependencyUnavailable).recoverWithItem(() -> pageForms.error(503,
                        "Your account cannot be shown for a moment. Try again shortly."));
    }

    @Operation(operationId = "changeAccount", summary = "Change the account's profile (the page's forms)",
    description = "action = login, second_factor or passkey (signing in, with the sign-in form's CSRF cookie); with the "
    + "session's csrf: profile (display_name; show_email=yes makes the confirmed sign-in address public; given_name, "
    + "family_name, website, locale, zoneinfo, each removed when empty), email_change "
    + "(email, and password: the current one; the new address is mailed a link, the old one told), email_resend (a new "
    + "link for an address not yet confirmed), export (password: the person's data from every service, as a JSON file), "
    + "delete (confirm: the username typed again, and password: the account is deleted; see DELETE /user), unlink_identity "
    + "(identity: a linked identity of another provider no longer signs the person in; never the last way to sign in), "
    + "upstream_settings (second_factor_after_upstream=yes: the person's own second factor after another provider's sign-in).")
    @SecurityRequirementsSet
    @RequestBody(required = true, content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = AuthorizeDocs.AccountProfileForm.class)))
    @APIResponse(responseCode = "200", description = "The page with what was done; for export, the file.", content = {
    @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)),
    @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.OBJECT))})
    @APIResponse(responseCode = "303", description = "Done: back to the page.", headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "A form that is no form, or an unknown action.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "401", description = "No session, or a wrong password.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "403", description = "A form that this site did not send.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "404", description = "No such linked identity of the person.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "409", description = "The address is another account's, or confirmed already; the linked "
    + "identity is the last way to sign in.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "422", description = "A name or address the rules refuse.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "429", description = "Too many attempts.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "503", description = "The directory cannot be asked for a moment.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @POST
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> post(String body, @Context UriInfo uri, @Context HttpHeaders headers, @Context HttpServerRequest http) {
        PagePost post = new PagePost(body, uri, headers, http);
        return forms.post(post, forms.flow(ProfilePages.PATH, uri),
                (action, form, session) -> change(action, form, session, uri, post.address()));
    }

    /** The largest avatar the form takes (the directory's own limit; a body past 1 MiB is refused before this). */
    static final int AVATAR_MAX_BYTES = 1024 * 1024;

    @Operation(operationId = "uploadAccountAvatar", summary = "Upload an avatar (the account page's form)",
    description = "multipart/form-data: csrf (the session's), avatar (a PNG or JPEG file). Back to the page.")
    @SecurityRequirementsSet
    @RequestBody(required = true, content = @Content(mediaType = "multipart/form-data",
    schema = @Schema(implementation = AuthorizeDocs.AvatarForm.class)))
    @APIResponse(responseCode = "303", description = "Done: back to the page.", headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "401", description = "No session.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "403", description = "A form that this site did not send.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "422", description = "Not a PNG or JPEG image the platform takes.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "503", description = "The directory cannot be asked for a moment.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @POST
    @Path("/avatar")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    @io.smallrye.common.annotation.Blocking
    public Uni<Response> uploadAvatar(@org.jboss.resteasy.reactive.RestForm("csrf") String csrf,
            @org.jboss.resteasy.reactive.RestForm("avatar") org.jboss.resteasy.reactive.multipart.FileUpload avatar,
            @Context UriInfo uri, @Context HttpHeaders headers, @Context HttpServerRequest http) {
        byte[] image = read(avatar);
        return forms.withSession(new PagePost(null, uri, headers, http), csrf, forms.flow(ProfilePages.PATH, uri),
                session -> image == null ? page(session, AVATAR_REFUSED, null, 422, uri)
                        : details.setAvatar(session, image).map(done -> changed(uri))
                                .onFailure(DirectoryClient.Invalid.class).recoverWithUni(() -> page(session, AVATAR_REFUSED, null, 422, uri)));
    }

    private static final String AVATAR_REFUSED = "Choose a PNG or JPEG image of at most 1 MB. Nothing was changed.";

    /** The uploaded file's bytes; null when there is none, it is empty, or it is too large. */
    private static byte[] read(org.jboss.resteasy.reactive.multipart.FileUpload upload) {
        if (upload == null || upload.uploadedFile() == null || upload.size() <= 0 || upload.size() > AVATAR_MAX_BYTES) {
            return null;
        }
        try {
            return java.nio.file.Files.readAllBytes(upload.uploadedFile());
        } catch (java.io.IOException unreadable) {
            return null;
        }
    }

    private Uni<Response> change(String action, OAuthForm form, LoginSessions.Session session, UriInfo uri, String address) {
        Sudo.Again again = (message, status) -> page(session, message, null, status, uri);
        return switch (action) {
            case "profile" -> details.change(session, form.get("display_name"), "yes".equals(form.get("show_email")),
                            ProfilePages.details(form))
                    .map(done -> changed(uri))
                    .onFailure(DirectoryClient.Invalid.class).recoverWithUni(e -> again.show(
                            ProfilePages.refused(((DirectoryClient.Invalid) e).fields()), 422));
            case "email_change" -> Sudo.confirmed(details.changeEmail(session, form.get("email"), Sudo.given(form), address)
                    .chain(changed -> page(session, null, changed.changed()
                            ? "We mailed a link to " + changed.email() + ": open it to confirm the address. Your old address "
                                    + "was told of the change." : "That is your address already.", 200, uri))
                    .onFailure(DirectoryClient.Invalid.class).recoverWithUni(() -> again.show(
                            "That is not an e-mail address. Nothing was changed.", 422)), Sudo.Words.ACCOUNT, again)
                    .onFailure(DirectoryClient.Conflict.class).recoverWithUni(() -> again.show(
                            "Another account has that address. Nothing was changed.", 409))
                    // Past the limit of mails with a link (per person and per address).
                    .onFailure(DirectoryClient.PasswordThrottled.class).recoverWithUni(() -> again.show(
                            "Too many mails with a link were sent for now. Try again later. Nothing was changed.", 429));
            case "email_resend" -> details.resendVerification(session)
                    .chain(() -> page(session, null, "We mailed a new link. It works once, for 24 hours.", 200, uri))
                    .onFailure(DirectoryClient.Conflict.class).recoverWithUni(() -> again.show(
                            "Your address is confirmed already.", 409))
                    .onFailure(DirectoryClient.PasswordThrottled.class).recoverWithUni(() -> again.show(
                            "Too many mails with a link were sent for now. Try again later.", 429));
            case "export" -> Sudo.confirmed(details.export(session, Sudo.given(form), address)
                    .map(json -> pages.export(session.username(), json)), Sudo.Words.ACCOUNT, again);
            case "delete" -> Sudo.confirmed(details.delete(session, form.get("confirm"), Sudo.given(form), address)
                    .map(gone -> pages.deleted(gone, uri))
                    .onFailure(DirectoryClient.Invalid.class).recoverWithUni(() -> again.show(
                            "Type your username as it is written to confirm. Nothing was deleted.", 422))
                    .onFailure(DirectoryClient.Conflict.class).recoverWithUni(e -> again.show(
                            ((DirectoryClient.Conflict) e).detail() == null ? "Your account cannot be deleted as things stand."
                                    : ((DirectoryClient.Conflict) e).detail() + " Nothing was deleted.", 409)),
                    Sudo.Words.ACCOUNT, again);
            case "unlink_identity" -> unlink(session, form.get("identity"), address, uri);
            case "upstream_settings" -> upstreamSettings(session, "yes".equals(form.get("second_factor_after_upstream")),
                    form, address, uri);
            default -> pageForms.unknownAction();
        };
    }

    /**
     * Asking for the second factor after another provider's sign-in: turning it on needs nothing
     * more; turning it off is a protection gone, so a recent sign-in or the password again.
     */
    private Uni<Response> upstreamSettings(LoginSessions.Session session, boolean required, OAuthForm form, String address,
            UriInfo uri) {
        Uni<Void> confirmed = required ? Uni.createFrom().voidItem() : security.recentOrSudo(session, Sudo.given(form), address);
        return Sudo.confirmed(confirmed.chain(() -> linkedSignIns.secondFactorAfterUpstream(session, required, address))
                .map(done -> changed(uri)), Sudo.Words.ACCOUNT, (message, status) -> page(session, message, null, status, uri));
    }

    private Uni<Response> unlink(LoginSessions.Session session, String identity, String address, UriInfo uri) {
        if (identity == null || !identity.matches("[0-9]{1,18}")) {
            return page(session, "There is no such linked account.", null, 404, uri);
        }
        return linkedSignIns.unlink(session, Long.parseLong(identity), address)
                .chain(() -> page(session, null, "It no longer signs you in here.", 200, uri))
                .onFailure(DirectoryClient.NotFound.class).recoverWithUni(() -> page(session,
                        "There is no such linked account.", null, 404, uri))
                .onFailure(LinkedSignIns.LastWayToSignIn.class).recoverWithUni(() -> page(session,
                        "That is your only way to sign in. Set a password (Forgot your password?) or add a passkey first.",
                        null, 409, uri));
    }

    private static Response changed(UriInfo uri) {
        return AccountForms.changed(ProfilePages.PATH, uri);
    }

    private Uni<Response> page(LoginSessions.Session session, String error, String notice, int status, UriInfo uri) {
        return details.profile(session).chain(profile -> linkedSignIns.of(session)
                .map(linked -> pages.page(session, profile, linked, error, notice, status, uri)));
    }
}
