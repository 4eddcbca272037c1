package org.ziggurat.auth.pages;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
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
import org.ziggurat.auth.authorization.AccountSecurity;
import org.ziggurat.auth.authorization.AuthorizationRequest;
import org.ziggurat.auth.authorization.AuthorizationRequests;
import org.ziggurat.auth.authorization.FederatedSignIns;
import org.ziggurat.auth.authorization.FederationAttempts;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.federation.Upstream;
import org.ziggurat.auth.federation.UpstreamProviders;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.platform.rest.problem.FailureKinds;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Signing in with another provider (an institution's proxy, ORCID, GitHub), in the browser: the
 * sign-in page's button starts an attempt and sends the browser to the provider; the provider
 * sends it back to a page that posts its answer here (a GET changes nothing); the answer, proven,
 * signs in the identity's account, or leads to the choice for an identity no account uses yet.
 */
@Tag(name = "Account")
@Path("/account/federation")
public class FederationResource {

    static final String START = "/account/federation/start";
    static final String CALLBACK = FederatedSignIns.CALLBACK_PATH;
    static final String IDENTITY = "/account/federation/identity";
    static final String CONFIRMATION = "/account/federation/confirmation";
    private static final java.util.regex.Pattern PROVIDER_ID = java.util.regex.Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");
    private static final Set<String> ACCOUNT_PATHS = Set.of(ProfilePages.PATH, AccountPages.PATH);

    private final FederatedSignIns federated;
    private final UpstreamProviders providers;
    private final FederationPages pages;
    private final AuthorizePages authorizePages;
    private final SecondFactorPages secondFactorPages;
    private final SignInForm signInForm;
    private final PageForms forms;
    private final LoginSessions sessions;
    private final AuthorizationRequests requests;
    private final AccountSecurity security;

    FederationResource(FederatedSignIns federated, UpstreamProviders providers, FederationPages pages,
            AuthorizePages authorizePages, SecondFactorPages secondFactorPages, SignInForm signInForm, PageForms forms,
            LoginSessions sessions, AuthorizationRequests requests, AccountSecurity security) {
        this.federated = federated;
        this.providers = providers;
        this.pages = pages;
        this.authorizePages = authorizePages;
        this.secondFactorPages = secondFactorPages;
        this.signInForm = signInForm;
        this.forms = forms;
        this.sessions = sessions;
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
                return forms.signedIn(post, form.get("csrf"), flow, PageForms.Unsent.ACCOUNT, session -> Sudo.confirmed(
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

    @Operation(operationId = "federatedSignInAnswer", summary = "The provider's answer (browser), at the redirect URI shared before",
    description = "Where providers sent the browser back before each had its own redirect URI: it serves only the attempts "
    + "begun then (10 minutes). A page whose form posts the answer here: nothing changes on a GET.")
    @SecurityRequirementsSet
    @Parameter(name = "state", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "code", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "iss", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING), description = "RFC 9207.")
    @Parameter(name = "error", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The page that posts the answer.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "No state, or a repeated parameter.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @GET
    @Path("/callback")
    public Uni<Response> answer(@Parameter(hidden = true) @CookieParam(FederationAttempts.COOKIE) String browser,
            @Context UriInfo uri) {
        return answerAt(browser, uri, CALLBACK);
    }

    @Operation(operationId = "federatedSignInProviderAnswer", summary = "The provider's answer (browser)",
    description = "Where a provider sends the browser back: each provider its own redirect URI (register {issuer}"
    + FederatedSignIns.CALLBACK_PATH + "/{provider} with it, the provider's id at the end), so that an answer is taken only "
    + "for an attempt of that provider (RFC 9700 §4.4.2). A page whose form posts the answer there, which finishes the "
    + "sign-in: nothing changes on a GET.")
    @SecurityRequirementsSet
    @Parameter(name = "provider", in = ParameterIn.PATH, description = "The provider's id.")
    @Parameter(name = "state", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "code", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "iss", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING), description = "RFC 9207.")
    @Parameter(name = "error", in = ParameterIn.QUERY, schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "The page that posts the answer.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "No state, a repeated parameter, or no provider's id.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @GET
    @Path("/callback/{provider}")
    public Uni<Response> providerAnswer(@PathParam("provider") String provider,
            @Parameter(hidden = true) @CookieParam(FederationAttempts.COOKIE) String browser, @Context UriInfo uri) {
        if (provider == null || !PROVIDER_ID.matcher(provider).matches()) {
            return Uni.createFrom().item(pages.error(400, "This is not an answer of a sign-in that began here. Start again.", null, uri));
        }
        return answerAt(browser, uri, CALLBACK + "/" + provider);
    }

    private Uni<Response> answerAt(String browser, UriInfo uri, String callbackPath) {
        QueryParameters.Read read = QueryParameters.read(uri, List.of("state", "code", "iss", "error"));
        if (read.repeated() != null || read.values().get("state") == null) {
            return Uni.createFrom().item(pages.error(400, "This is not an answer of a sign-in that began here. Start again.", null, uri));
        }
        // Read, not taken: the form's POST takes the attempt; its CSP must let the way on reach the client.
        return federated.formTarget(read.values().get("state"), browser)
                .onFailure(FailureKinds::dependencyUnavailable).recoverWithNull()
                .map(target -> pages.continueForm(read.values(), target, uri, callbackPath));
    }

    @Operation(operationId = "finishFederatedSignInShared", summary = "Finish a sign-in with another provider, begun before each had its own redirect URI",
    description = "As at a provider's own redirect URI, for the attempts begun before each provider had one (10 minutes): "
    + "an attempt begun since is not taken here.")
    @SecurityRequirementsSet
    @RequestBody(required = true, content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = AuthorizeDocs.FederationAnswerForm.class)))
    @APIResponse(responseCode = "200", description = "The second factor's form.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "303", description = "Signed in: back where the sign-in began; or on to the choice page.",
    headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "No such sign-in in progress for this browser.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "401", description = "The answer proved nothing.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "409", description = "The identity is another account's.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "503", description = "The provider or the directory cannot be reached for a moment.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @POST
    @Path("/callback")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> finishShared(String body, @Context UriInfo uri, @Context HttpHeaders headers,
            @Context HttpServerRequest http) {
        return finishAt(null, new PagePost(body, uri, headers, http));
    }

    @Operation(operationId = "finishFederatedSignIn", summary = "Finish a sign-in with another provider",
    description = "The provider's answer, for the browser that began the sign-in (its cookie): the code exchanged, the ID "
    + "token checked (issuer, audience, signature by the provider's keys, nonce), RFC 9207's iss, then the identity's account "
    + "signed in, its own second factor asked for when due, or the choice page for an identity no account uses.")
    @SecurityRequirementsSet
    @RequestBody(required = true, content = @Content(mediaType = "application/x-www-form-urlencoded",
    schema = @Schema(implementation = AuthorizeDocs.FederationAnswerForm.class)))
    @APIResponse(responseCode = "200", description = "The second factor's form.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "303", description = "Signed in: back where the sign-in began; or on to the choice page.",
    headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "No such sign-in in progress for this browser.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "401", description = "The answer proved nothing.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "409", description = "The identity is another account's.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "503", description = "The provider or the directory cannot be reached for a moment.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @Parameter(name = "provider", in = ParameterIn.PATH, description = "The provider's id: the attempt must be its.")
    @POST
    @Path("/callback/{provider}")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> finish(@PathParam("provider") String provider, String body, @Context UriInfo uri,
            @Context HttpHeaders headers, @Context HttpServerRequest http) {
        if (provider == null || !PROVIDER_ID.matcher(provider).matches()) {
            return Uni.createFrom().item(pages.error(400,
                    "This sign-in took too long, was finished already, or began in another browser. Start again.", null, uri));
        }
        return finishAt(provider, new PagePost(body, uri, headers, http));
    }

    /** The answer that came to {@code provider}'s redirect URI (null: the shared one of old). */
    private Uni<Response> finishAt(String provider, PagePost post) {
        var record = signInForm.signInRecorder();
        UriInfo uri = post.uri();
        return forms.take(post, form -> sessions.find(post.sessionCookie())
                .chain(session -> federated.finish(form.get("state"), post.cookie(FederationAttempts.COOKIE),
                        new Upstream.Answer(form.get("code"), form.get("iss"), form.get("error")), session, post.address(), provider))
                .chain(outcome -> next(outcome, record, uri))
                .onFailure(FederatedSignIns.AttemptGone.class).recoverWithItem(() -> pages.error(400,
                        "This sign-in took too long, was finished already, or began in another browser. Start again.", null, uri))
                .onFailure(FederatedSignIns.NotProven.class).recoverWithItem(e -> {
                    FederatedSignIns.NotProven failed = (FederatedSignIns.NotProven) e;
                    return pages.attemptEnded(401, failed.cancelled() ? "The sign-in was cancelled at the provider. Nobody was signed in."
                            : "The provider's answer could not be verified, so nobody was signed in. Start again.",
                            failed.back(), uri);
                })
                .onFailure(FederatedSignIns.LinkedElsewhere.class).recoverWithItem(() -> pages.attemptEnded(409,
                        "That account at the provider is linked to another account here. Sign in to that one, or unlink it "
                                + "there first.", new FederationAttempts.Return(ProfilePages.PATH, Map.of(), "-"), uri))
                .onFailure(FailureKinds::dependencyUnavailable).recoverWithItem(() -> pages.error(503,
                        "Signing in is not possible for a moment. Try again shortly.", null, uri)));
    }

    private Uni<Response> next(FederatedSignIns.Outcome outcome,
            java.util.function.Function<LoginSessions.Created, Uni<Void>> record, UriInfo uri) {
        if (outcome instanceof FederatedSignIns.SignedIn signedIn) {
            return record.apply(signedIn.created()).map(done -> withCookie(authorizePages.backWithSession(
                    signedIn.back().path(), signedIn.back().params(), uri, signedIn.created()), pages.attemptCleared(uri)));
        }
        if (outcome instanceof FederatedSignIns.SecondFactorDue due) {
            return Uni.createFrom().item(withCookie(secondFactorPages.form(due.back().path(), due.back().params(),
                    due.back().formTarget(), uri, null, 200, due.pendingSignIn(), due.personId()), pages.attemptCleared(uri)));
        }
        if (outcome instanceof FederatedSignIns.Unlinked unlinked) {
            return Uni.createFrom().item(pages.toChoice(unlinked.held(), uri));
        }
        FederatedSignIns.Linked linked = (FederatedSignIns.Linked) outcome;
        return PageForms.page(PagePaths.seeOther(PagePaths.apiPath(uri, linked.back().path())).cookie(pages.attemptCleared(uri)).build());
    }

    @Operation(operationId = "showFederatedIdentity", summary = "The choice for a new identity (browser)",
    description = "After a provider vouched for an identity that no account uses: make an account with it, or sign in to "
    + "yours and link it (never by a matching address).")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The page.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "Nothing waits for this browser.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @GET
    @Path("/identity")
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
    @Path("/identity")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> choose(String body, @Context UriInfo uri, @Context HttpHeaders headers, @Context HttpServerRequest http) {
        PagePost post = new PagePost(body, uri, headers, http);
        String held = post.cookie(FederationAttempts.PENDING_COOKIE);
        var record = signInForm.signInRecorder();
        return forms.take(post, form -> withHeld(held, uri, (found, provider) -> {
            SignInForm.Flow flow = new SignInForm.Flow("federation", found.back().clientId(), IDENTITY, Map.of(), uri,
                    (message, login, status) -> pages.identity(found, provider, null, message, status, null, login, uri),
                    created -> authorizePages.backWithSession(IDENTITY, Map.of(), uri, created), found.back().formTarget());
            return forms.signInOr(post, form, () -> flow, action -> switch (action) {
                case "create" -> forms.beforeSession(post, form, flow, PageForms.Unsent.NEW_ACCOUNT,
                        () -> create(form, held, found, provider, record, uri));
                case "link" -> forms.signedIn(post, form.get("csrf"), flow, PageForms.Unsent.LINK,
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
        return federated.createAccount(held, username, displayName, email)
                .chain(outcome -> {
                    if (outcome instanceof FederatedSignIns.ConfirmationMailed mailed) {
                        // Nothing is made until the address's owner uses the link: nobody is signed in.
                        return Uni.createFrom().item(withCookie(pages.confirmation(200, "mailed", provider.displayName(),
                                mailed.email(), mailed.username(), null, null, uri), pages.heldCleared(uri)));
                    }
                    FederatedSignIns.SignedIn signedIn = (FederatedSignIns.SignedIn) outcome;
                    return record.apply(signedIn.created()).map(done -> withCookie(authorizePages.backWithSession(
                            signedIn.back().path(), signedIn.back().params(), uri, signedIn.created()), pages.heldCleared(uri)));
                })
                .onFailure(DirectoryClient.PasswordThrottled.class).recoverWithItem(() -> pages.identity(found, provider, null,
                        "That address received as many links as it may for now. Try again later, or use another address.",
                        429, typed, null, uri))
                .onFailure(FederatedSignIns.NewAccountsClosed.class).recoverWithItem(() -> pages.identity(found, provider, null,
                        "Signing in with " + provider.displayName() + " makes no new accounts here. Sign in to yours to link it.",
                        403, typed, null, uri))
                .onFailure(DirectoryClient.Conflict.class).recoverWithItem(e -> pages.identity(found, provider, null,
                        conflict((DirectoryClient.Conflict) e), 409, typed, null, uri))
                .onFailure(DirectoryClient.Invalid.class).recoverWithItem(e -> pages.identity(found, provider, null,
                        invalid(((DirectoryClient.Invalid) e).fields()), 422, typed, null, uri));
    }

    private Uni<Response> link(OAuthForm form, String held, LoginSessions.Session session, FederationAttempts.Held found,
            Upstream provider, String address, UriInfo uri) {
        // A new way into the account: a recent sign-in, or the password again (a session cookie alone adds none).
        return Sudo.confirmed(security.recentOrSudo(session, Sudo.password(form), address)
                .chain(() -> federated.linkHeld(held, session, address))
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

    @Operation(operationId = "showFederatedAccountConfirmation", summary = "The page a link to make an account opens (browser)",
    description = "After a new account through a provider gave an address that the provider did not verify, the link mailed "
    + "to it opens this page: a Confirm button; nothing changes on a GET (mail scanners follow links).")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The page.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "410", description = "A link without a token.", content = @Content(mediaType = "text/html", schema = @Schema(type = SchemaType.STRING)))
    @GET
    @Path("/confirmation")
    public Response showConfirmation(@QueryParam("token") String token, @Context UriInfo uri) {
        boolean none = token == null || token.isBlank();
        return pages.confirmation(none ? 410 : 200, none ? "gone" : "confirm", null, null, null, none ? null : token, null, uri);
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
            return federated.confirmAccount(token)
                    .map(person -> pages.confirmation(201, "done", null, null, person.username(), null, null, uri))
                    .onFailure(DirectoryClient.LinkGone.class).recoverWithItem(() -> pages.confirmation(410, "gone", null, null,
                            null, null, null, uri))
                    .onFailure(DirectoryClient.Conflict.class).recoverWithItem(e -> pages.confirmation(409, "taken", null, null,
                            null, null, conflict((DirectoryClient.Conflict) e), uri))
                    .onFailure(FailureKinds::dependencyUnavailable).recoverWithItem(() -> pages.error(503,
                            "Accounts cannot be made for a moment. Go back and press Confirm again in a minute.", null, uri));
        });
    }

    /** The held identity and its provider, or the page that says nothing waits. */
    private Uni<Response> withHeld(String held, UriInfo uri,
            java.util.function.BiFunction<FederationAttempts.Held, Upstream, Uni<Response>> then) {
        return federated.held(held).chain(found -> {
            Upstream provider = federated.provider(found);
            return provider == null ? Uni.createFrom().failure(new FederatedSignIns.AttemptGone()) : then.apply(found, provider);
        })
                .onFailure(FederatedSignIns.AttemptGone.class).recoverWithItem(() -> pages.error(400,
                        "Nothing waits here: that sign-in took too long or was finished already. Start again.", null, uri))
                .onFailure(FailureKinds::dependencyUnavailable).recoverWithItem(() -> pages.error(503,
                        "Signing in is not possible for a moment. Try again shortly.", null, uri));
    }

    private static String conflict(DirectoryClient.Conflict conflict) {
        return conflict.detail() != null ? conflict.detail() + (conflict.detail().contains("email")
                ? " If it is yours, sign in to that account to link this one." : "")
                : "That username or address is taken.";
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

    private static Response withCookie(Response response, jakarta.ws.rs.core.NewCookie cookie) {
        return Response.fromResponse(response).cookie(cookie).build();
    }
}
