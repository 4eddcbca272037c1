package org.ziggurat.auth.pages;

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
import org.ziggurat.auth.authorization.AccountSecurity;
import org.ziggurat.auth.authorization.AuthorizationRequest;
import org.ziggurat.auth.authorization.AuthorizationRequests;
import org.ziggurat.auth.authorization.FederatedAccounts;
import org.ziggurat.auth.authorization.FederatedSignIns;
import org.ziggurat.auth.authorization.FederationAttempts;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.federation.Upstream;
import org.ziggurat.auth.federation.UpstreamProviders;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.platform.rest.problem.FailureKinds;

import java.util.Map;
import java.util.Set;

/**
 * Signing in with another provider (an institution's proxy, ORCID, GitHub), in the browser: a
 * sign-in page's button starts an attempt and sends the browser to the provider (the account
 * page's links one to a signed-in person); the provider sends it back to
 * {@link FederationCallbackResource}; an identity no account uses leads to
 * {@link FederationIdentityResource}'s choice. A new account whose address the provider did not
 * verify waits for the link mailed to it, whose page is here too.
 */
@Tag(name = "Account")
@Path("/account/federation")
public class FederationResource {

    static final String START = "/account/federation/start";
    static final String CONFIRMATION = "/account/federation/confirmation";
    private static final Set<String> ACCOUNT_PATHS = Set.of(ProfilePages.PATH, AccountPages.PATH);

    private final FederatedSignIns federated;
    private final FederatedAccounts accounts;
    private final UpstreamProviders providers;
    private final FederationPages pages;
    private final PageForms forms;
    private final AuthorizationRequests requests;
    private final AccountSecurity security;

    FederationResource(FederatedSignIns federated, FederatedAccounts accounts, UpstreamProviders providers, FederationPages pages, PageForms forms,
            AuthorizationRequests requests, AccountSecurity security) {
        this.federated = federated;
        this.accounts = accounts;
        this.providers = providers;
        this.pages = pages;
        this.forms = forms;
        this.requests = requests;
        this.security = security;
    }

    @Operation(operationId = "startFederatedSignIn", summary = "Sign in with another provider (the sign-in page's buttons)",
    description = "Starts a sign-in at a configured provider for this browser and leads it there. From a sign-in page: the "
    + "sign-in form's CSRF field, and where the person goes once signed in (return_path and that page's parameters). "
    + "From the account page (intent=link, the session's CSRF field): the provider's identity is linked to the person.")
    @SecurityRequirementsSet
    @RequestBody(required = true, content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = AuthorizeDocs.FederationStartForm.class)))
    @APIResponse(responseCode = "200", description = "A page that leads the browser on to the provider (its link, followed "
    + "by its script).", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "No such provider, or a sign-in request that is not valid.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "401", description = "intent=link: no session.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "403", description = "A form that this site did not send.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "503", description = "The provider cannot be reached for a moment.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @POST
    @Path("/start")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> start(String body, @Context UriInfo uri, @Context HttpHeaders headers, @Context HttpServerRequest http) {
        PagePost post = new PagePost(body, uri, headers, http);
        return forms.take(post, form -> {
            Upstream provider = providers.find(form.get("provider"));
            if (provider == null) {
                return PageForms.page(pages.error(400, "There is no such way to sign in here.", null, uri));
            }
            FederationAttempts.Return account = new FederationAttempts.Return(ProfilePages.PATH, Map.of(), "-");
            SignInForm.Flow flow = SignInForm.Flow.signedInElsewhere("federation", uri,
                    (message, login, status) -> pages.error(status, message, account, uri));
            if ("link".equals(form.get("intent"))) {
                // A new way into the account: a recent sign-in, or the password again (a session cookie alone adds none).
                return forms.signedIn(post, PageForms.token(form), flow, PageForms.Unsent.ACCOUNT, session -> Sudo.confirmed(
                        security.recentOrSudo(session, Sudo.password(form), post.address())
                                .chain(() -> toProvider(provider, account, session, uri)),
                        Sudo.Words.LINK_ANOTHER, (message, status) -> PageForms.page(pages.error(status, message, account, uri))));
            }
            return forms.beforeSession(post, form, flow, PageForms.Unsent.SIGN_IN, () -> back(form).chain(back -> back == null
                    ? PageForms.page(pages.error(400, "This sign-in cannot go on. Start again from the application.", null, uri))
                    : toProvider(provider, back, null, uri)));
        });
    }

    private Uni<Response> toProvider(Upstream provider, FederationAttempts.Return back, LoginSessions.Session linking,
            UriInfo uri) {
        return federated.start(provider, back, linking)
                .map(started -> pages.toProvider(provider.displayName(), started.providerUrl(), started.browserValue(), uri))
                .onFailure(FailureKinds::dependencyUnavailable).recoverWithItem(() -> pages.error(503,
                        provider.displayName() + " cannot be reached for a moment. Try again shortly, or sign in another way.",
                        back, uri));
    }

    /** Where a sign-in page's button leads back to, checked as that page checks its request; null when it is not good. */
    private Uni<FederationAttempts.Return> back(OAuthForm form) {
        String path = form.get("return_path");
        if ("/oauth/authorize".equals(path)) {
            return requests.check(form.only(AuthorizationRequest.PARAMETERS)).map(request -> request == null
                    || AuthorizationRequests.pushRequired(request) || requests.refusal(request) != null ? null
                    : new FederationAttempts.Return(path, request.afterSignIn(), request.app().clientId(),
                            AuthorizePages.formTarget(request)))
                    .onFailure(AuthorizationRequests.PushedRequestRefused.class).recoverWithNull();
        }
        if ("/oauth/device".equals(path)) {
            return Uni.createFrom().item(new FederationAttempts.Return(path, DeviceResource.codeOf(form), "-"));
        }
        return Uni.createFrom().item(ACCOUNT_PATHS.contains(path) ? new FederationAttempts.Return(path, Map.of(), "-") : null);
    }

    @Operation(operationId = "showFederatedAccountConfirmation", summary = "The page a link to make an account opens (browser)",
    description = "After a new account through a provider gave an address that the provider did not verify, the link mailed "
    + "to it opens this page: a Confirm button; nothing changes on a GET (mail scanners follow links).")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The page.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "410", description = "A link that is no good, or whose provider is gone or changed since.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "503", description = "The directory cannot be asked for a moment.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @GET
    @Path("/confirmation")
    public Uni<Response> showConfirmation(@QueryParam("token") String token, @Context UriInfo uri) {
        if (token == null || token.isBlank()) {
            return Uni.createFrom().item(pages.confirmation(410, "gone", null, null, null, null, null, uri));
        }
        // What the link makes, read and shown: the person sees which account and provider they confirm.
        return accounts.pendingAccount(token)
                .map(pending -> pages.confirmation(200, "confirm", pending.providerName(), pending.email(), pending.username(),
                        token, null, uri))
                .onFailure().recoverWithItem(e -> confirmationRefused(e, uri));
    }

    private Response confirmationRefused(Throwable e, UriInfo uri) {
        if (e instanceof DirectoryClient.LinkGone) {
            return pages.confirmation(410, "gone", null, null, null, null, null, uri);
        }
        if (e instanceof FederatedAccounts.ProviderChanged) {
            return pages.confirmation(410, "provider", null, null, null, null, null, uri);
        }
        if (e instanceof DirectoryClient.Conflict conflict) {
            return pages.confirmation(409, "taken", null, null, null, null, FederationPages.taken(conflict), uri);
        }
        if (FailureKinds.dependencyUnavailable(e)) {
            return pages.error(503, "Accounts cannot be made for a moment. Open the link again in a minute.", null, uri);
        }
        throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
    }

    @Operation(operationId = "confirmFederatedAccount", summary = "Make an account whose address a mailed link proves (the page's form)",
    description = "Makes the account the link was mailed for, its address confirmed and the provider's identity linked: 201; "
    + "410 when the link was used, expired or is not one; 409 when its name, address or identity was taken meanwhile. "
    + "Nobody is signed in: the person signs in with the provider.")
    @SecurityRequirementsSet
    @RequestBody(required = true, content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = AuthorizeDocs.EmailVerificationForm.class)))
    @APIResponse(responseCode = "201", description = "Made.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "A form that is no form.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "409", description = "Taken meanwhile.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "410", description = "The link no longer works.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "503", description = "The directory cannot be asked for a moment.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @POST
    @Path("/confirmation")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> confirm(String body, @Context UriInfo uri, @Context HttpHeaders headers,
            @Context HttpServerRequest http) {
        return forms.take(new PagePost(body, uri, headers, http), form -> {
            String token = form.get("token");
            if (token == null || token.isBlank()) {
                return Uni.createFrom().item(pages.confirmation(410, "gone", null, null, null, null, null, uri));
            }
            return accounts.confirmAccount(token)
                    .map(person -> pages.confirmation(201, "done", null, null, person.username(), null, null, uri))
                    .onFailure().recoverWithItem(e -> confirmationRefused(e, uri));
        });
    }
}
