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
import org.ziggurat.auth.authorization.AccountSecurity;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.auth.passkeys.PasskeyVerifier;
import org.ziggurat.directory.client.DirectoryClient;

/**
 * The account page's security section in a browser, with the sign-in session's cookie (the same
 * sign-in as the authorization pages'): a GET shows, every change is a POST with the session's
 * CSRF token, and removing a factor or making new recovery codes asks for the password again.
 */
@Tag(name = "Account", description = "The account pages of a signed-in person (browser, the sign-in session's cookie): security, second factors, recovery codes.")
@Path("/account/security")
public class AccountResource {

    private final AccountSecurity security;
    private final LoginSessions sessions;
    private final AccountForms forms;
    private final AccountPages pages;
    private final PageForms pageForms;

    AccountResource(AccountSecurity security, LoginSessions sessions, AccountForms forms, AccountPages pages,
            PageForms pageForms) {
        this.security = security;
        this.sessions = sessions;
        this.forms = forms;
        this.pages = pages;
        this.pageForms = pageForms;
    }

    @Operation(operationId = "showAccountSecurity", summary = "The account page's security section (browser)",
    description = "Two-factor authentication (an authenticator app), recovery codes and the latest security events of "
    + "the signed-in person; the sign-in page when there is no session.")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The page, or the sign-in page.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "503", description = "The directory cannot be asked for a moment.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @GET
    public Uni<Response> show(@Parameter(hidden = true) @CookieParam(LoginSessions.COOKIE) String cookie, @Context UriInfo uri) {
        return forms.show(cookie, forms.flow(AccountPages.PATH, uri), session -> showSecurity(session, null, 200, uri));
    }

    @Operation(operationId = "changeAccountSecurity", summary = "Change the account's security (the page's forms)",
    description = "action = login or second_factor (signing in, with the sign-in form's CSRF cookie); with the session's "
    + "csrf: totp_start (a new key and its QR code), totp_confirm (code: the first code turns two-factor authentication "
    + "on and shows recovery codes once), totp_remove and recovery_regenerate, passkey_register (credential: the "
    + "browser's PublicKeyCredential as JSON, and a name) and passkey_remove (passkey); a removal and new recovery codes "
    + "need the password again, or a passkey's assertion (credential) in its place; passkey signs in with one; "
    + "password_change (password: the current one, new_password, new_password_again) sets a new password and ends every "
    + "other session of the person, and the tokens of the password grant without a client; application_revoke (grant) takes an application's access away: its tokens end; "
    + "session_end (session) signs one other sign-in out, sessions_end_others every other one.")
    @SecurityRequirementsSet
    @RequestBody(required = true, content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = AuthorizeDocs.AccountSecurityForm.class)))
    @APIResponse(responseCode = "200", description = "A page: the key to enrol, the recovery codes, or the section with a message.",
    content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "303", description = "Done: back to the section.", headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "A form that is no form, or an unknown action.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "401", description = "No session, a wrong password or code.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "403", description = "A form that this site did not send.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "409", description = "Not possible as things stand (set up already, or nothing to confirm).", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "422", description = "The authenticator's code is not right.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "429", description = "Too many attempts.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "503", description = "The directory cannot be asked for a moment.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @POST
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> post(String body, @Context UriInfo uri, @Context HttpHeaders headers, @Context HttpServerRequest http) {
        PagePost post = new PagePost(body, uri, headers, http);
        return forms.post(post, forms.flow(AccountPages.PATH, uri),
                (action, form, session) -> change(action, form, session, uri, post.address()));
    }

    private Uni<Response> change(String action, OAuthForm form, LoginSessions.Session session, UriInfo uri, String address) {
        Sudo.Again again = (message, status) -> showSecurity(session, message, status, uri);
        return switch (action) {
            case "totp_start" -> Sudo.confirmed(security.startTotp(session, Sudo.given(form), address)
                    .map(enrolment -> pages.totp(session, enrolment, null, 200, uri))
                    .onFailure(DirectoryClient.Conflict.class).recoverWithUni(() -> again.show(
                            "An authenticator app is set up already: remove it first.", 409)), Sudo.Words.SECURITY, again);
            case "totp_confirm" -> security.confirmTotp(session, form.get("code") == null ? "" : form.get("code"), address)
                    .map(codes -> pages.recoveryCodes(codes, uri))
                    .onFailure(DirectoryClient.Invalid.class).recoverWithItem(() -> pages.totp(session, null,
                            "That code is not right. Check the time on your phone, and enter the code your app shows now.", 422, uri))
                    .onFailure(DirectoryClient.Conflict.class).recoverWithUni(() -> again.show(
                            "There is no authenticator app being set up: start again.", 409));
            case "totp_remove" -> Sudo.confirmed(security.removeTotp(session, Sudo.given(form), address)
                    .map(done -> changed(uri))
                    .onFailure(DirectoryClient.NotFound.class).recoverWithItem(() -> changed(uri)), Sudo.Words.SECURITY, again);
            case "recovery_regenerate" -> Sudo.confirmed(security.regenerateRecoveryCodes(session, Sudo.given(form), address)
                    .map(codes -> pages.recoveryCodes(codes, uri))
                    .onFailure(DirectoryClient.Conflict.class).recoverWithUni(() -> again.show(
                            "Recovery codes come with two-factor authentication: turn it on first.", 409)), Sudo.Words.SECURITY, again);
            // The form's credential is the new passkey's registration: only the password confirms here.
            case "passkey_register" -> Sudo.confirmed(security.addPasskey(session, form.get("credential"), form.get("name"),
                            Sudo.password(form), address)
                    .map(codes -> codes.isEmpty() ? changed(uri) : pages.recoveryCodes(codes, uri))
                    .onFailure(PasskeyVerifier.PasskeyRefused.class).recoverWithUni(() -> again.show(
                            "The passkey could not be added: the browser's answer did not pass. Try again.", 400))
                    .onFailure(DirectoryClient.Invalid.class).recoverWithUni(() -> again.show(
                            "Give the passkey a name (up to 64 characters) to tell it from others.", 422))
                    .onFailure(DirectoryClient.Conflict.class).recoverWithUni(() -> again.show(
                            "This passkey is registered already.", 409)), Sudo.Words.SECURITY, again);
            case "passkey_remove" -> Sudo.confirmed(passkeyId(form.get("passkey"))
                    .chain(id -> security.removePasskey(session, id, Sudo.given(form), address))
                    .map(done -> changed(uri))
                    .onFailure(DirectoryClient.NotFound.class).recoverWithItem(() -> changed(uri)), Sudo.Words.SECURITY, again);
            case "password_change" -> !java.util.Objects.equals(form.get("new_password"), form.get("new_password_again"))
                    ? again.show("The two new passwords differ. Nothing was changed.", 422)
                    : Sudo.confirmed(security.changePassword(session, form.get("password"), form.get("new_password"), address)
                            .map(done -> changed(uri))
                            .onFailure(DirectoryClient.Invalid.class).recoverWithUni(() -> again.show(
                                    "Choose a new password of 10 to 128 characters. Nothing was changed.", 422)),
                            Sudo.Words.SECURITY, again);
            case "session_end" -> passkeyId(form.get("session")).chain(id -> sessions.endOne(session, id))
                    .map(done -> changed(uri))
                    .onFailure(DirectoryClient.NotFound.class).recoverWithItem(() -> changed(uri));
            case "sessions_end_others" -> sessions.endOthers(session.personId(), session.hash()).map(done -> changed(uri));
            case "application_revoke" -> passkeyId(form.get("grant"))
                    .chain(id -> security.revokeApplication(session, id)).map(done -> changed(uri))
                    .onFailure(DirectoryClient.NotFound.class).recoverWithItem(() -> changed(uri));
            default -> pageForms.unknownAction();
        };
    }

    private static Response changed(UriInfo uri) {
        return AccountForms.changed(AccountPages.PATH, uri);
    }

    /** A form's numeric id (a passkey's, a grant's); an id that is none names nothing: NotFound. */
    private static Uni<Long> passkeyId(String value) {
        try {
            return Uni.createFrom().item(Long.parseLong(value == null ? "" : value));
        } catch (NumberFormatException e) {
            return Uni.createFrom().failure(new DirectoryClient.NotFound());
        }
    }

    private Uni<Response> showSecurity(LoginSessions.Session session, String message, int status, UriInfo uri) {
        return security.status(session).chain(factors -> security.applications(session).chain(grants ->
                sessions.list(session).map(signIns -> pages.security(session, factors, AccountPages.applications(grants),
                        AccountPages.sessions(signIns), message, status, uri))));
    }
}
