package org.ziggurat.auth.pages;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
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
import org.ziggurat.auth.authorization.FederatedSignIns;
import org.ziggurat.auth.authorization.FederationAttempts;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.federation.Upstream;
import org.ziggurat.platform.rest.problem.FailureKinds;

import java.util.List;
import java.util.Map;


/**
 * Where a provider sends the browser back after a sign-in that began here: a GET shows a page
 * whose form posts the answer (a GET changes nothing), and the POST finishes the sign-in. Each
 * provider has its own redirect URI ({@code /callback/{provider}}, RFC 9700 §4.4.2); the one they
 * shared before serves the attempts begun then. Both take the same way.
 */
@Tag(name = "Account")
@Path(FederationCallbackResource.PATH)
public class FederationCallbackResource {

    static final String PATH = FederatedSignIns.CALLBACK_PATH;
    private static final java.util.regex.Pattern PROVIDER_ID = java.util.regex.Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");
    private static final String GONE = "This sign-in took too long, was finished already, or began in another browser. Start again.";

    private final FederatedSignIns federated;
    private final FederationPages pages;
    private final AuthorizePages authorizePages;
    private final SecondFactorPages secondFactorPages;
    private final SignInForm signInForm;
    private final PageForms forms;
    private final LoginSessions sessions;

    FederationCallbackResource(FederatedSignIns federated, FederationPages pages, AuthorizePages authorizePages,
            SecondFactorPages secondFactorPages, SignInForm signInForm, PageForms forms, LoginSessions sessions) {
        this.federated = federated;
        this.pages = pages;
        this.authorizePages = authorizePages;
        this.secondFactorPages = secondFactorPages;
        this.signInForm = signInForm;
        this.forms = forms;
        this.sessions = sessions;
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
    public Uni<Response> answer(@Parameter(hidden = true) @CookieParam(FederationAttempts.COOKIE) String browser,
            @Context UriInfo uri) {
        return answer(null, browser, uri);
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
    @Path("/{provider}")
    public Uni<Response> providerAnswer(@PathParam("provider") String provider,
            @Parameter(hidden = true) @CookieParam(FederationAttempts.COOKIE) String browser, @Context UriInfo uri) {
        return answer(provider, browser, uri);
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
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> finishShared(String body, @Context UriInfo uri, @Context HttpHeaders headers,
            @Context HttpServerRequest http) {
        return finish(null, new PagePost(body, uri, headers, http));
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
    @Path("/{provider}")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> finish(@PathParam("provider") String provider, String body, @Context UriInfo uri,
            @Context HttpHeaders headers, @Context HttpServerRequest http) {
        return finish(provider, new PagePost(body, uri, headers, http));
    }

    /**
     * The provider's answer at its redirect URI ({@code provider}'s own; null: the one shared before),
     * as a page whose form posts it back there.
     */
    private Uni<Response> answer(String provider, String browser, UriInfo uri) {
        QueryParameters.Read read = QueryParameters.read(uri, List.of("state", "code", "iss", "error"));
        if (!named(provider) || read.repeated() != null || read.values().get("state") == null) {
            return PageForms.page(pages.error(400, "This is not an answer of a sign-in that began here. Start again.", null, uri));
        }
        // Read, not taken: the form's POST takes the attempt; its CSP must let the way on reach the client.
        return federated.formTarget(read.values().get("state"), browser)
                .onFailure(FailureKinds::dependencyUnavailable).recoverWithNull()
                .map(target -> pages.continueForm(read.values(), target, uri, PATH + (provider == null ? "" : "/" + provider)));
    }

    /** The answer that came to {@code provider}'s redirect URI (null: the one shared before). */
    private Uni<Response> finish(String provider, PagePost post) {
        var record = signInForm.signInRecorder();
        UriInfo uri = post.uri();
        if (!named(provider)) {
            return PageForms.page(pages.error(400, GONE, null, uri));
        }
        return forms.take(post, form -> sessions.find(post.sessionCookie())
                .chain(session -> federated.finish(form.get("state"), post.cookie(FederationAttempts.COOKIE),
                        new Upstream.Answer(form.get("code"), form.get("iss"), form.get("error")), session, post.address(), provider))
                .chain(outcome -> next(outcome, record, uri))
                .onFailure(FederatedSignIns.AttemptGone.class).recoverWithItem(() -> pages.error(400, GONE, null, uri))
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
            return record.apply(signedIn.created()).map(done -> PageHeaders.withCookie(authorizePages.backWithSession(
                    signedIn.back().path(), signedIn.back().params(), uri, signedIn.created()), pages.attemptCleared(uri)));
        }
        if (outcome instanceof FederatedSignIns.SecondFactorDue due) {
            return Uni.createFrom().item(PageHeaders.withCookie(secondFactorPages.form(due.back().path(), due.back().params(),
                    due.back().formTarget(), uri, null, 200, due.pendingSignIn(), due.personId()), pages.attemptCleared(uri)));
        }
        if (outcome instanceof FederatedSignIns.Unlinked unlinked) {
            return Uni.createFrom().item(pages.toChoice(unlinked.held(), uri));
        }
        FederatedSignIns.Linked linked = (FederatedSignIns.Linked) outcome;
        return PageForms.page(PagePaths.seeOther(PagePaths.apiPath(uri, linked.back().path())).cookie(pages.attemptCleared(uri)).build());
    }

    /** No provider's id (the redirect URI shared before), or one that can be a provider's. */
    private static boolean named(String provider) {
        return provider == null || PROVIDER_ID.matcher(provider).matches();
    }
}
