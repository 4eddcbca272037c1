package org.ziggurat.auth.pages;

import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateData;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.auth.applications.ApplicationRepository;
import org.ziggurat.auth.applications.ApplicationRow;
import org.ziggurat.auth.directory.DirectoryClient;
import org.ziggurat.auth.oauth.ApiAuthorization;
import org.ziggurat.auth.oauth.BearerTokens;
import org.ziggurat.auth.oauth.ClientAuthenticator;
import org.ziggurat.auth.oauth.ClientCredentials;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.auth.oauth.Pkce;
import org.ziggurat.auth.oauth.RedirectUris;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.auth.oauth.TokenRules;
import org.ziggurat.auth.tokens.TokenCrypto;
import org.ziggurat.auth.tokens.TokenRepository;
import org.ziggurat.platform.http.PublicUrls;
import org.ziggurat.platform.problem.ProblemMappers;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The authorization endpoint (RFC 6749 §3.1, §4.1). In a browser: a login page when there is no
 * session, then a consent page (skipped when the person already granted these scopes), then a
 * redirect with the code. By API (the spec's POST form): the resource owner's own access token
 * authorizes the code. An unknown client or an unregistered redirect URI is an error page, never
 * a redirect (RFC 9700 §4.11: no open redirector).
 */
@Path("/oauth/authorize")
public class AuthorizeResource {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");
    private static final Pattern CODE = Pattern.compile("zac_[A-Za-z0-9_-]{43}");
    private static final List<String> REQUEST_PARAMS = List.of("response_type", "client_id", "redirect_uri", "scope",
            "state", "code_challenge", "code_challenge_method");

    @Inject
    Template login;

    @Inject
    Template consent;

    @Inject
    Template error;

    @Inject
    Template code;

    @Inject
    Template redirect;

    @Inject
    ApplicationRepository applications;

    @Inject
    ClientAuthenticator clients;

    @Inject
    LoginSessions sessions;

    @Inject
    ConsentRepository consents;

    @Inject
    TokenRepository tokens;

    @Inject
    TokenCrypto crypto;

    @Inject
    org.ziggurat.auth.AuthConfig config;

    @Inject
    @RestClient
    DirectoryClient directory;

    @TemplateData
    public record Param(String name, String value) {
    }

    /** A request whose client and redirect URI are known good: errors now go back to the client. */
    record Checked(ApplicationRow app, String redirectUri, Map<String, String> params) {
        String state() {
            return params.get("state");
        }
    }

    // ------------------------------------------------------------------ browser flow

    @GET
    public Uni<Response> authorize(@Context UriInfo uri, @CookieParam(LoginSessions.COOKIE) String sessionCookie) {
        Map<String, String> params = new LinkedHashMap<>();
        for (String name : REQUEST_PARAMS) {
            List<String> values = uri.getQueryParameters().get(name);
            if (values != null && values.size() > 1) {
                return Uni.createFrom().item(errorPage(400, "The parameter '" + name + "' is repeated."));
            }
            if (values != null && !values.get(0).isEmpty()) {
                params.put(name, values.get(0));
            }
        }
        return check(params).chain(checked -> checked == null
                ? Uni.createFrom().item(errorPage(400, unknownClientMessage(params)))
                : continueAuthorization(checked, uri, sessionCookie, null));
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> post(String body, @HeaderParam("Content-Type") String contentType,
            @HeaderParam("Authorization") String authorization, @CookieParam(LoginSessions.COOKIE) String sessionCookie,
            @CookieParam(LoginSessions.LOGIN_CSRF_COOKIE) String loginCsrfCookie, @Context UriInfo uri,
            @Context HttpServerRequest request) {
        OAuthForm form = OAuthForm.parse(contentType, body);
        String action = form.get("action");
        if (action == null) {
            return apiAuthorize(form, authorization, uri);
        }
        Map<String, String> params = new LinkedHashMap<>();
        for (String name : REQUEST_PARAMS) {
            String value = form.get(name);
            if (value != null) {
                params.put(name, value);
            }
        }
        return check(params).chain(checked -> {
            if (checked == null) {
                return Uni.createFrom().item(errorPage(400, unknownClientMessage(params)));
            }
            // The pages' forms carry the request back in hidden fields, which the browser (or
            // anyone posting) may change: each step checks it again, as the first one did.
            Response invalid = validateRest(checked);
            if (invalid != null) {
                return Uni.createFrom().item(invalid);
            }
            return switch (action) {
                case "login" -> login(checked, form, loginCsrfCookie, uri, request);
                case "approve", "deny" -> decide(checked, action, form.get("csrf"), sessionCookie, uri);
                default -> Uni.createFrom().item(errorPage(400, "Unknown action."));
            };
        });
    }

    private Uni<Response> login(Checked checked, OAuthForm form, String csrfCookie, UriInfo uri, HttpServerRequest request) {
        String csrf = form.get("csrf");
        if (csrf == null || csrfCookie == null || !constantTimeEquals(csrf, csrfCookie)) {
            EVENTS.infof("event=csrf_refused page=login client_id=%s", checked.app().clientId());
            return Uni.createFrom().item(errorPage(403, "The sign-in form expired or was not sent by this site. Start again."));
        }
        String loginName = form.get("login");
        String password = form.get("password");
        if (loginName == null || password == null) {
            return Uni.createFrom().item(loginPage(checked, uri, "Enter your username or email and your password.", loginName, 400));
        }
        return directory.verifyPassword(new DirectoryClient.PasswordCheck(loginName, password, clientAddress(request)))
                .chain(person -> sessions.create(person.userId(), person.username()).map(created -> {
                    EVENTS.infof("event=login_succeeded client_id=%s person_id=%d", checked.app().clientId(), person.userId());
                    // Post/redirect/get: back to the authorization request, now with a session.
                    return Response.status(303).header("Location", authorizeUrl(uri, checked.params()))
                            .cookie(PageHeaders.cookie(LoginSessions.COOKIE, created.cookieValue(), secure(uri),
                                    (int) config.loginSessionLifetime().toSeconds()))
                            .cookie(PageHeaders.cookie(LoginSessions.LOGIN_CSRF_COOKIE, "", secure(uri), 0))
                            .header("Cache-Control", "no-store").build();
                }))
                .onFailure(DirectoryClient.PasswordRefused.class).recoverWithItem(() -> {
                    EVENTS.infof("event=login_failed page=login client_id=%s", checked.app().clientId());
                    return loginPage(checked, uri, "The username or password is not right.", loginName, 401);
                })
                .onFailure(DirectoryClient.PasswordThrottled.class).recoverWithItem(() ->
                        loginPage(checked, uri, "Too many sign-in attempts. Wait a few minutes and try again.", loginName, 429))
                .onFailure(ProblemMappers::dependencyUnavailable).recoverWithItem(() ->
                        loginPage(checked, uri, "Signing in is not possible for a moment. Try again shortly.", loginName, 503));
    }

    private Uni<Response> decide(Checked checked, String action, String csrf, String sessionCookie, UriInfo uri) {
        return sessions.find(sessionCookie).chain(session -> {
            if (session == null) {
                return Uni.createFrom().item(loginPage(checked, uri, "Your session ended. Sign in again.", null, 401));
            }
            if (csrf == null || !constantTimeEquals(csrf, session.csrfToken())) {
                EVENTS.infof("event=csrf_refused page=consent client_id=%s person_id=%d", checked.app().clientId(),
                        session.personId());
                return Uni.createFrom().item(errorPage(403, "The consent form was not sent by this site. Nothing was shared."));
            }
            if (action.equals("deny")) {
                EVENTS.infof("event=consent_denied client_id=%s person_id=%d", checked.app().clientId(), session.personId());
                return Uni.createFrom().item(redirectError(checked, "access_denied", "The person denied the request."));
            }
            Set<String> scopes = Scopes.parse(checked.params().get("scope"));
            return consents.grant(checked.app().id(), session.personId(), scopes)
                    .chain(() -> issueCode(checked, session.personId(), session.username(), scopes))
                    .map(codeValue -> {
                        EVENTS.infof("event=consent_granted client_id=%s person_id=%d", checked.app().clientId(),
                                session.personId());
                        return codeRedirect(checked, codeValue, uri);
                    });
        });
    }

    private Uni<Response> continueAuthorization(Checked checked, UriInfo uri, String sessionCookie, String message) {
        Response invalid = validateRest(checked);
        if (invalid != null) {
            return Uni.createFrom().item(invalid);
        }
        return sessions.find(sessionCookie).chain(session -> {
            if (session == null) {
                return Uni.createFrom().item(loginPage(checked, uri, message, null, 200));
            }
            Set<String> scopes = Scopes.parse(checked.params().get("scope"));
            return consents.covers(checked.app().id(), session.personId(), scopes).chain(covered -> covered
                    ? issueCode(checked, session.personId(), session.username(), scopes).map(c -> codeRedirect(checked, c, uri))
                    : Uni.createFrom().item(consentPage(checked, session, scopes, uri)));
        });
    }

    // ------------------------------------------------------------------ API flow (spec 4.2)

    /**
     * {@code POST /oauth/authorize} with {@code response_type=code, client_id, client_secret,
     * redirect_uri, username}: the resource owner's own access token in the Authorization header
     * stands for their consent, and the client proves itself too. Which tokens may do this, and
     * for which scopes: {@link ApiAuthorization}. The answer goes to the client's redirect URI
     * with {@code code} and {@code state} (RFC 6749 §4.1.2); only the out-of-band URI goes to
     * {@code /oauth/authorize/:code}.
     */
    private Uni<Response> apiAuthorize(OAuthForm form, String authorization, UriInfo uri) {
        if (!"code".equals(form.get("response_type"))) {
            throw new OAuthException(org.ziggurat.auth.oauth.OAuthError.UNSUPPORTED_RESPONSE_TYPE, "response_type must be code.");
        }
        String username = form.require("username");
        String redirectUri = form.require("redirect_uri");
        String bearer = BearerTokens.from(authorization);
        if (bearer == null) {
            return Uni.createFrom().item(Response.status(401).type(MediaType.APPLICATION_JSON)
                    .header("WWW-Authenticate", "Bearer").header("Cache-Control", "no-store")
                    .entity(Map.of("error", "invalid_request",
                            "error_description", "The resource owner's access token is required.")).build());
        }
        ClientCredentials.Claimed claimed = new ClientCredentials.Claimed(form.require("client_id"),
                form.get("client_secret"), false);
        Set<String> scopes = Scopes.parse(form.get("scope"));
        String challenge = Pkce.challenge(form.get("code_challenge"), form.get("code_challenge_method"));
        return clients.authenticate(claimed).chain(app -> tokens.byHash(crypto.hash(bearer)).chain(owner -> {
            if (!TokenRules.isBearer(owner, Instant.now()) || owner.personId() == null) {
                return Uni.createFrom().item(Response.status(401).type(MediaType.APPLICATION_JSON)
                        .header("WWW-Authenticate", "Bearer error=\"invalid_token\"")
                        .entity(Map.of("error", "invalid_request", "error_description", "The access token is not valid.")).build());
            }
            if (!app.redirectUris().contains(redirectUri)) {
                throw OAuthException.invalidRequest("The redirect_uri is not registered for this client.");
            }
            if (!app.confidential() && challenge == null) {
                throw OAuthException.invalidRequest("A public client must send a PKCE code_challenge (S256).");
            }
            ApiAuthorization.check(new ApiAuthorization.Presented(owner.applicationId(), owner.username(), owner.scopes()),
                    app.id(), app.scopes(), username, scopes);
            Map<String, String> params = new LinkedHashMap<>();
            params.put("redirect_uri", redirectUri);
            if (form.get("state") != null) {
                params.put("state", form.get("state"));
            }
            if (challenge != null) {
                params.put("code_challenge", challenge);
            }
            Checked checked = new Checked(app, redirectUri, params);
            // The token carries these scopes already: the grant is recorded as the person's own.
            return consents.grant(app.id(), owner.personId(), scopes)
                    .chain(() -> issueCode(checked, owner.personId(), owner.username(), scopes))
                    .map(codeValue -> {
                        String location = RedirectUris.isOutOfBand(redirectUri)
                                ? PublicUrls.of(uri).api("/oauth/authorize/" + codeValue)
                                : withQuery(redirectUri, codeAnswer(checked, codeValue));
                        return Response.status(302).location(URI.create(location)).type("text/html; charset=UTF-8")
                                .entity(redirect.data("assets", assets(uri)).data("location", location).render())
                                .header("Cache-Control", "no-store").build();
                    });
        }));
    }

    /** The out-of-band page: the code in {@code #authorization_code}. */
    @GET
    @Path("/{code}")
    public Response showCode(@PathParam("code") String codeValue, @Context UriInfo uri) {
        if (codeValue == null || !CODE.matcher(codeValue).matches()) {
            return errorPage(404, "This is not an authorization code.");
        }
        return PageHeaders.page(200, code.data("assets", assets(uri)).data("code", codeValue).render(), null).build();
    }

    /**
     * The spec's DELETE: revokes the authorization an access token belongs to (all its tokens) and
     * sends the browser back to the client's registered redirect URI.
     */
    @DELETE
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> revokeAuthorization(String body, @HeaderParam("Content-Type") String contentType) {
        OAuthForm form = OAuthForm.parse(contentType, body);
        String accessToken = form.require("access_token");
        String redirectUri = form.require("redirect_uri");
        String username = form.get("username");
        ClientCredentials.Claimed claimed = new ClientCredentials.Claimed(form.require("client_id"),
                form.get("client_secret"), false);
        return clients.authenticate(claimed).chain(app -> {
            if (!app.redirectUris().contains(redirectUri)) {
                throw OAuthException.invalidRequest("The redirect_uri is not registered for this client.");
            }
            return tokens.byHash(crypto.hash(accessToken)).chain(row -> {
                Uni<Integer> revoked = TokenRules.deletableBy(row, app.id(), username) ? tokens.revokeFamily(row.family()) : Uni.createFrom().item(0);
                return revoked.map(count -> {
                    if (count > 0) {
                        EVENTS.infof("event=authorization_revoked client_id=%s person_id=%s revoked=%d", app.clientId(),
                                row.personId(), count);
                    }
                    return Response.seeOther(URI.create(redirectUri)).header("Cache-Control", "no-store").build();
                });
            });
        });
    }

    // ------------------------------------------------------------------ pieces

    /** The client and redirect URI, checked; null when either is unknown (answer: an error page). */
    private Uni<Checked> check(Map<String, String> params) {
        String clientId = params.get("client_id");
        if (!ClientCredentials.plausibleClientId(clientId)) {
            return Uni.createFrom().nullItem();
        }
        return applications.byClientId(clientId).map(app -> {
            if (app == null || app.ownerId() == null) {
                return null;
            }
            String redirectUri = params.get("redirect_uri");
            if (redirectUri == null && app.redirectUris().size() == 1) {
                redirectUri = app.redirectUris().get(0);
            }
            if (redirectUri == null || !app.redirectUris().contains(redirectUri)) {
                return null;
            }
            Map<String, String> all = new LinkedHashMap<>(params);
            all.put("redirect_uri", redirectUri);
            return new Checked(app, redirectUri, all);
        });
    }

    /**
     * The rest of the request, checked once the client and redirect URI are known good. A bad
     * request is an error page, not a redirect to the client: an error redirect that needs no
     * interaction of the person's would make this server an open redirector for any registered
     * URI (RFC 9700 §4.11.2). Only the person's own answer (approve or deny) goes back.
     */
    private Response validateRest(Checked checked) {
        if (!"code".equals(checked.params().get("response_type"))) {
            return errorPage(400, "unsupported_response_type: response_type must be code.");
        }
        try {
            Scopes.requireAllowed(Scopes.parse(checked.params().get("scope")), checked.app().scopes());
            String challenge = Pkce.challenge(checked.params().get("code_challenge"),
                    checked.params().get("code_challenge_method"));
            if (challenge == null && !checked.app().confidential()) {
                return errorPage(400, "invalid_request: A public client must send a PKCE code_challenge (S256).");
            }
        } catch (OAuthException e) {
            return errorPage(400, e.error().code() + ": " + e.getMessage());
        }
        return null;
    }

    private Uni<String> issueCode(Checked checked, long personId, String username, Set<String> scopes) {
        String value = crypto.newCode();
        String challenge = checked.params().get("code_challenge");
        return tokens.insertCode(crypto.hash(value), new TokenRepository.Code(checked.app().id(), personId, username,
                        checked.redirectUri(), List.copyOf(scopes), challenge, java.util.UUID.randomUUID(),
                        java.time.OffsetDateTime.now(java.time.ZoneOffset.UTC).plus(config.codeLifetime()), false))
                .replaceWith(value)
                .invoke(() -> EVENTS.infof("event=code_issued client_id=%s person_id=%d pkce=%s", checked.app().clientId(),
                        personId, challenge != null));
    }

    private Response codeRedirect(Checked checked, String codeValue, UriInfo uri) {
        if (RedirectUris.isOutOfBand(checked.redirectUri())) {
            return Response.status(303).header("Location", apiPath(uri, "/oauth/authorize/" + codeValue))
                    .header("Cache-Control", "no-store").build();
        }
        return Response.seeOther(URI.create(withQuery(checked.redirectUri(), codeAnswer(checked, codeValue))))
                .header("Cache-Control", "no-store").build();
    }

    /** The authorization response's parameters (RFC 6749 §4.1.2). */
    private static Map<String, String> codeAnswer(Checked checked, String codeValue) {
        Map<String, String> answer = new LinkedHashMap<>();
        answer.put("code", codeValue);
        if (checked.state() != null) {
            answer.put("state", checked.state());
        }
        return answer;
    }

    private Response redirectError(Checked checked, String errorCode, String description) {
        if (RedirectUris.isOutOfBand(checked.redirectUri())) {
            return errorPage(400, description);
        }
        Map<String, String> answer = new LinkedHashMap<>();
        answer.put("error", errorCode);
        answer.put("error_description", description);
        if (checked.state() != null) {
            answer.put("state", checked.state());
        }
        return Response.seeOther(URI.create(withQuery(checked.redirectUri(), answer))).header("Cache-Control", "no-store").build();
    }

    private Response loginPage(Checked checked, UriInfo uri, String message, String loginName, int status) {
        String csrf = crypto.newCsrfToken();
        String html = login.data("assets", assets(uri)).data("action", apiPath(uri, "/oauth/authorize"))
                .data("appName", checked.app().name()).data("error", message).data("login", loginName)
                .data("csrf", csrf).data("params", hidden(checked.params())).render();
        return PageHeaders.page(status, html, null)
                .cookie(PageHeaders.cookie(LoginSessions.LOGIN_CSRF_COOKIE, csrf, secure(uri), 3600)).build();
    }

    private Response consentPage(Checked checked, LoginSessions.Session session, Set<String> scopes, UriInfo uri) {
        String target = PageHeaders.origin(checked.redirectUri());
        String html = consent.data("assets", assets(uri)).data("action", apiPath(uri, "/oauth/authorize"))
                .data("appName", checked.app().name()).data("username", session.username())
                .data("scopes", ScopeDescriptions.describe(scopes))
                .data("redirectHost", target == null ? "this page" : target)
                .data("csrf", session.csrfToken()).data("params", hidden(checked.params())).render();
        return PageHeaders.page(200, html, target).build();
    }

    private Response errorPage(int status, String message) {
        return PageHeaders.page(status, error.data("assets", "/oauth/assets").data("message", message).render(), null).build();
    }

    private static String unknownClientMessage(Map<String, String> params) {
        return params.get("client_id") == null ? "The request names no application (client_id)."
                : "The application is unknown, or the redirect URI is not one it registered.";
    }

    private static List<Param> hidden(Map<String, String> params) {
        List<Param> list = new ArrayList<>();
        params.forEach((name, value) -> list.add(new Param(name, value)));
        return list;
    }

    /**
     * A path, set as the Location header itself: JAX-RS's {@code location()} and {@code seeOther()}
     * would resolve it against the base URI (with the gateway's public host, and its prefix twice).
     */
    private static String authorizeUrl(UriInfo uri, Map<String, String> params) {
        return withQuery(apiPath(uri, "/oauth/authorize"), params);
    }

    static String withQuery(String base, Map<String, String> params) {
        StringBuilder out = new StringBuilder(base);
        char separator = base.contains("?") ? '&' : '?';
        for (Map.Entry<String, String> e : params.entrySet()) {
            out.append(separator).append(e.getKey()).append('=').append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
            separator = '&';
        }
        return out.toString();
    }

    private static String assets(UriInfo uri) {
        return apiPath(uri, "/oauth/assets");
    }

    /**
     * A public path without scheme and host, for the pages' forms and the browser's redirects:
     * they then stay on whatever host name reached the gateway (localhost, 127.0.0.1, a LAN
     * address), where the session cookie and the CSP's {@code form-action 'self'} are.
     */
    private static String apiPath(UriInfo uri, String path) {
        return URI.create(PublicUrls.of(uri).api(path)).getRawPath();
    }

    private static boolean secure(UriInfo uri) {
        return "https".equalsIgnoreCase(uri.getBaseUri().getScheme());
    }

    private static String clientAddress(HttpServerRequest request) {
        String forwarded = request.getHeader("X-Forwarded-For");
        if (forwarded != null && !forwarded.isBlank()) {
            return forwarded.split(",")[0].trim();
        }
        return request.remoteAddress() == null ? null : request.remoteAddress().hostAddress();
    }

    private static boolean constantTimeEquals(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
