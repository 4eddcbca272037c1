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
import org.ziggurat.auth.authorization.FederatedAccounts;
import org.ziggurat.auth.authorization.FederatedSignIns;
import org.ziggurat.auth.authorization.FederationAttempts;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.federation.Upstream;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.platform.rest.problem.FailureKinds;

import java.util.List;
import java.util.Map;


/**
 * The choice for an identity that another provider vouched for and no account uses yet: make an
 * account with it, or sign in to one and link it (never by a matching address). The identity is
 * held for this browser (its cookie) until then.
 */
@Tag(name = "Account")
@Path(FederationIdentityResource.PATH)
public class FederationIdentityResource {

    static final String PATH = "/account/federation/identity";

    private final FederatedAccounts accounts;
    private final FederationPages pages;
    private final AuthorizePages authorizePages;
    private final SignInForm signInForm;
    private final PageForms forms;
    private final LoginSessions sessions;
    private final AccountSecurity security;

    FederationIdentityResource(FederatedAccounts accounts, FederationPages pages, AuthorizePages authorizePages,
            SignInForm signInForm, PageForms forms, LoginSessions sessions, AccountSecurity security) {
        this.accounts = accounts;
        this.pages = pages;
        this.authorizePages = authorizePages;
        this.signInForm = signInForm;
        this.forms = forms;
        this.sessions = sessions;
        this.security = security;
    }

    @Operation(operationId = "showFederatedIdentity", summary = "The choice for a new identity (browser)",
    description = "After a provider vouched for an identity that no account uses: make an account with it, or sign in to "
    + "yours and link it (never by a matching address).")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The page.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "Nothing waits for this browser.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @GET
    public Uni<Response> identity(@Parameter(hidden = true) @CookieParam(FederationAttempts.PENDING_COOKIE) String held,
            @Parameter(hidden = true) @CookieParam(LoginSessions.COOKIE) String sessionCookie, @Context UriInfo uri) {
        return withHeld(held, uri, (found, provider) -> sessions.find(sessionCookie)
                .map(session -> pages.identity(found, provider, session, null, 200, null, null, uri)));
    }

    @Operation(operationId = "chooseFederatedIdentity", summary = "Make an account with a new identity, or link it (the page's forms)",
    description = "action = create (username, display_name, email: a new account with the identity; the address is confirmed "
    + "only when the provider verified that very address), login, second_factor or passkey (signing in to an account, with "
    + "the page's CSRF cookie), link (the session's csrf: the identity joins the signed-in person's account).")
    @SecurityRequirementsSet
    @RequestBody(required = true, content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = AuthorizeDocs.FederationIdentityForm.class)))
    @APIResponse(responseCode = "200", description = "The page again, or the second factor's form.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "303", description = "Signed in or linked: back where the sign-in began.",
    headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "Nothing waits for this browser, or an unknown action.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "401", description = "A wrong password, or no session to link to.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "403", description = "A form that this site did not send, or no new accounts through this provider.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "409", description = "The username, address or identity is taken.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "422", description = "A username or address the rules refuse.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "429", description = "Too many sign-in attempts.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "503", description = "The directory cannot be asked for a moment.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @POST
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> choose(String body, @Context UriInfo uri, @Context HttpHeaders headers, @Context HttpServerRequest http) {
        PagePost post = new PagePost(body, uri, headers, http);
        String held = post.cookie(FederationAttempts.PENDING_COOKIE);
        var record = signInForm.signInRecorder();
        return forms.take(post, form -> withHeld(held, uri, (found, provider) -> {
            SignInForm.Flow flow = new SignInForm.Flow("federation", found.back().clientId(), PATH, Map.of(), uri,
                    (message, login, status) -> pages.identity(found, provider, null, message, status, null, login, uri),
                    created -> authorizePages.backWithSession(PATH, Map.of(), uri, created), found.back().formTarget());
            return forms.signInOr(post, form, () -> flow, action -> switch (action) {
                case "create" -> forms.beforeSession(post, form, flow, PageForms.Unsent.NEW_ACCOUNT,
                        () -> create(form, held, found, provider, record, uri));
                case "link" -> forms.signedIn(post, PageForms.token(form), flow, PageForms.Unsent.LINK,
                        session -> link(form, held, session, found, provider, post.address(), uri));
                default -> forms.unknownAction();
            });
        }));
    }

    private Uni<Response> create(OAuthForm form, String held, FederationAttempts.Held found, Upstream provider,
            java.util.function.Function<LoginSessions.Created, Uni<Void>> record, UriInfo uri) {
        String username = trimmed(form.get("username"));
        String displayName = trimmed(form.get("display_name"));
        String email = trimmed(form.get("email"));
        String[] typed = {username == null ? "" : username, displayName == null ? "" : displayName, email == null ? "" : email};
        return accounts.createAccount(held, username, displayName, email)
                .chain(outcome -> {
                    if (outcome instanceof FederatedSignIns.ConfirmationMailed mailed) {
                        // Nothing is made until the address's owner uses the link: nobody is signed in.
                        return Uni.createFrom().item(PageHeaders.withCookie(pages.confirmation(200, "mailed", provider.displayName(),
                                mailed.email(), mailed.username(), null, null, uri), pages.heldCleared(uri)));
                    }
                    FederatedSignIns.SignedIn signedIn = (FederatedSignIns.SignedIn) outcome;
                    return record.apply(signedIn.created()).map(done -> PageHeaders.withCookie(authorizePages.backWithSession(
                            signedIn.back().path(), signedIn.back().params(), uri, signedIn.created()), pages.heldCleared(uri)));
                })
                .onFailure(DirectoryClient.PasswordThrottled.class).recoverWithItem(() -> pages.identity(found, provider, null,
                        "That address received as many links as it may for now. Try again later, or use another address.",
                        429, typed, null, uri))
                .onFailure(FederatedSignIns.NewAccountsClosed.class).recoverWithItem(() -> pages.identity(found, provider, null,
                        "Signing in with " + provider.displayName() + " makes no new accounts here. Sign in to yours to link it.",
                        403, typed, null, uri))
                .onFailure(DirectoryClient.Conflict.class).recoverWithItem(e -> pages.identity(found, provider, null,
                        FederationPages.taken((DirectoryClient.Conflict) e), 409, typed, null, uri))
                .onFailure(DirectoryClient.Invalid.class).recoverWithItem(e -> pages.identity(found, provider, null,
                        invalid(((DirectoryClient.Invalid) e).fields()), 422, typed, null, uri));
    }

    private Uni<Response> link(OAuthForm form, String held, LoginSessions.Session session, FederationAttempts.Held found,
            Upstream provider, String address, UriInfo uri) {
        // A new way into the account: a recent sign-in, or the password again (a session cookie alone adds none).
        return Sudo.confirmed(security.recentOrSudo(session, Sudo.password(form), address)
                .chain(() -> accounts.linkHeld(held, session, address))
                .map(back -> PagePaths.seeOther(PagePaths.withQuery(PagePaths.apiPath(uri, back.path()), back.params()))
                        .cookie(pages.heldCleared(uri)).build())
                .onFailure(FederatedSignIns.LinkedElsewhere.class).recoverWithItem(() -> pages.identity(found, provider,
                        session, "That " + provider.displayName() + " account is linked to another account here.", 409,
                        null, null, uri))
                .onFailure(DirectoryClient.Invalid.class).recoverWithItem(() -> pages.identity(found, provider, session,
                        "Your account links as many other accounts as it may. Unlink one on your account page first.",
                        422, null, null, uri)),
                Sudo.Words.LINK_IT, (message, status) -> PageForms.page(pages.identity(found, provider, session, message, status,
                        null, null, uri)));
    }

    /** The held identity and its provider, or the page that says nothing waits. */
    private Uni<Response> withHeld(String held, UriInfo uri,
            java.util.function.BiFunction<FederationAttempts.Held, Upstream, Uni<Response>> then) {
        return accounts.held(held).chain(found -> {
            Upstream provider = accounts.provider(found);
            return provider == null ? Uni.createFrom().failure(new FederatedSignIns.AttemptGone()) : then.apply(found, provider);
        })
                .onFailure(FederatedSignIns.AttemptGone.class).recoverWithItem(() -> pages.error(400,
                        "Nothing waits here: that sign-in took too long or was finished already. Start again.", null, uri))
                .onFailure(FailureKinds::dependencyUnavailable).recoverWithItem(() -> pages.error(503,
                        "Signing in is not possible for a moment. Try again shortly.", null, uri));
    }

    private static String invalid(List<String> fields) {
        if (fields.contains("username")) {
            return "A username is lower-case letters, digits and inner hyphens, at most 39, and not a reserved name.";
        }
        if (fields.contains("email")) {
            return "Enter an email address.";
        }
        return "The name is too long, or holds characters that cannot be shown.";
    }

    private static String trimmed(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
