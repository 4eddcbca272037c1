package org.ziggurat.auth.pages;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateData;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.Issuer;
import org.ziggurat.auth.authorization.AuthorizationRequest;
import org.ziggurat.auth.clients.PlatformName;
import org.ziggurat.auth.federation.UpstreamProviders;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.oauth.RedirectUris;
import org.ziggurat.auth.passkeys.PasskeyChallenges;
import org.ziggurat.auth.passkeys.Passkeys;
import org.ziggurat.platform.rest.http.PublicUrls;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the authorization endpoint answers a browser with: its pages (sign-in, consent, error,
 * the out-of-band code) and its redirects (the code, or the person's refusal, to the client).
 */
@ApplicationScoped
public class AuthorizePages {

    private final Template login;
    private final Template consent;
    private final PageForms forms;
    private final Template code;
    private final Template redirect;
    private final Template logout;
    private final Template signedOut;
    private final Template leave;
    private final TokenCrypto crypto;
    private final AuthConfig config;
    private final PlatformName platformName;
    private final Passkeys passkeys;
    private final UpstreamProviders providers;

    public AuthorizePages(@Location("login") Template login, @Location("consent") Template consent,
            PageForms forms, @Location("code") Template code, @Location("redirect") Template redirect,
            @Location("logout") Template logout, @Location("signed_out") Template signedOut,
            @Location("leave") Template leave, TokenCrypto crypto,
            AuthConfig config, PlatformName platformName, Passkeys passkeys, UpstreamProviders providers) {
        this.providers = providers;
        this.passkeys = passkeys;
        this.leave = leave;
        this.platformName = platformName;
        this.logout = logout;
        this.signedOut = signedOut;
        this.login = login;
        this.consent = consent;
        this.forms = forms;
        this.code = code;
        this.redirect = redirect;
        this.crypto = crypto;
        this.config = config;
    }

    @TemplateData
    public record Param(String name, String value) {
    }

    /** A provider's button on the sign-in page. */
    @TemplateData
    public record ProviderButton(String id, String name) {
    }

    /** The sign-in page, with a fresh double-submit CSRF cookie. */
    public Response login(AuthorizationRequest request, UriInfo uri, String message, String loginName, int status) {
        return loginPage("/oauth/authorize", request.app().name(), request.registeredBy(), request.frontChannel(),
                formTarget(request), uri, message, loginName, status);
    }

    /**
     * Where a sign-in for this request may end: the origin of its redirect URI, checked against the
     * application; null for the out-of-band page, which is ours. Chromium holds a form's CSP
     * {@code form-action} to every redirect that follows its POST, so the sign-in, second-factor
     * and federation pages must name it, or a returning person's last 303 (to the client, with the
     * code) is blocked.
     */
    public static String formTarget(AuthorizationRequest request) {
        return PageHeaders.origin(request.redirectUri());
    }

    /**
     * {@code unverified}: who registered the application, when no operator verified it; else null.
     * {@code formTarget}: the origin where the sign-in may end besides this site (null: none).
     */
    Response loginPage(String path, String appName, String unverified, Map<String, String> params, String formTarget,
            UriInfo uri, String message, String loginName, int status) {
        String csrf = crypto.newCsrfToken();
        String html = login.data("assets", PagePaths.assets(uri)).data("action", PagePaths.apiPath(uri, path))
                .data("appName", appName).data("unverified", unverified).data("platform", platformName.name())
                .data("error", message).data("login", loginName)
                .data("csrf", csrf).data("params", hidden(params))
                .data("passkeyOptions", passkeys.signInOptions(PasskeyChallenges.Ceremony.SIGN_IN, 0))
                .data("forgot", PagePaths.apiPath(uri, "/account/password/recovery"))
                .data("providers", providers.all().stream().map(p -> new ProviderButton(p.id(), p.displayName())).toList())
                .data("federationStart", PagePaths.apiPath(uri, FederationResource.START)).data("returnPath", path).render();
        return PageHeaders.page(status, html, formTarget)
                .cookie(PageHeaders.cookie(LoginSessions.LOGIN_CSRF_COOKIE, csrf, PagePaths.secure(uri), 3600)).build();
    }

    /** Post/redirect/get after signing in: back to the authorization request, now with a session. */
    public Response signedIn(AuthorizationRequest request, UriInfo uri, LoginSessions.Created created) {
        return backWithSession("/oauth/authorize", request.afterSignIn(), uri, created);
    }

    /**
     * A 303 back to the page at {@code path} with its parameters, setting the new session's cookie
     * and clearing the sign-in form's CSRF cookie, which has served.
     */
    Response backWithSession(String path, Map<String, String> params, UriInfo uri, LoginSessions.Created created) {
        return Response.status(303).header("Location", PagePaths.withQuery(PagePaths.apiPath(uri, path), params))
                .cookie(PageHeaders.cookie(LoginSessions.COOKIE, created.cookieValue(), PagePaths.secure(uri),
                        (int) config.loginSessionLifetime().toSeconds()))
                .cookie(PageHeaders.cookie(LoginSessions.LOGIN_CSRF_COOKIE, "", PagePaths.secure(uri), 0))
                .header("Cache-Control", "no-store").build();
    }

    public Response consent(AuthorizationRequest request, LoginSessions.Session session, Set<String> scopes, UriInfo uri) {
        String target = PageHeaders.origin(request.redirectUri());
        String html = consent.data("assets", PagePaths.assets(uri)).data("action", PagePaths.apiPath(uri, "/oauth/authorize"))
                .data("appName", request.app().name()).data("username", session.username())
                .data("unverified", request.registeredBy()).data("platform", platformName.name())
                .data("scopes", ScopeDescriptions.describe(scopes))
                .data("redirectHost", target == null ? "this page" : target)
                .data("csrf", session.csrfToken()).data("params", hidden(request.frontChannel())).render();
        return PageHeaders.page(200, html, target).build();
    }

    /** RP-initiated logout's question; its form may lead to where the browser goes after. */
    public Response logoutConfirmation(LoginSessions.Session session, Map<String, String> params, String returnTo, UriInfo uri) {
        String html = logout.data("assets", PagePaths.assets(uri)).data("action", PagePaths.apiPath(uri, "/oauth/logout"))
                .data("username", session.username()).data("csrf", session.csrfToken()).data("params", hidden(params))
                .data("returnHost", returnTo == null ? null : PageHeaders.origin(returnTo)).render();
        return PageHeaders.page(200, html, returnTo == null ? null : PageHeaders.origin(returnTo)).build();
    }

    /** Signed out: to the client's post-logout URI, or our page; the session cookie goes either way. */
    public Response signedOut(String returnTo, UriInfo uri) {
        Response.ResponseBuilder answer = returnTo != null
                ? Response.seeOther(URI.create(returnTo)).header("Cache-Control", "no-store")
                : PageHeaders.page(200, signedOut.data("assets", PagePaths.assets(uri)).data("returnTo", null)
                        .data("returnHost", null).render(), null);
        return answer.cookie(PageHeaders.cookie(LoginSessions.COOKIE, "", PagePaths.secure(uri), 0)).build();
    }

    /**
     * Signed out already, and a client asks to send the browser on without proving who it is (no
     * id_token_hint): our page, naming the destination, with a link the person may follow.
     */
    public Response signedOutWithChoice(String returnTo, UriInfo uri) {
        if (returnTo == null) {
            return signedOut(null, uri);
        }
        String html = signedOut.data("assets", PagePaths.assets(uri)).data("returnTo", returnTo)
                .data("returnHost", PageHeaders.origin(returnTo)).render();
        return PageHeaders.page(200, html, null)
                .cookie(PageHeaders.cookie(LoginSessions.COOKIE, "", PagePaths.secure(uri), 0)).build();
    }

    /** The out-of-band page: the code in {@code #authorization_code}. */
    public Response code(String codeValue, UriInfo uri) {
        return PageHeaders.page(200, code.data("assets", PagePaths.assets(uri)).data("code", codeValue).render(), null).build();
    }

    /** The browser's way on with a code: to the client, or to our out-of-band page. */
    public Response codeRedirect(AuthorizationRequest request, String codeValue, UriInfo uri) {
        if (RedirectUris.isOutOfBand(request.redirectUri())) {
            return Response.status(303).header("Location", PagePaths.apiPath(uri, "/oauth/authorize/" + codeValue))
                    .header("Cache-Control", "no-store").build();
        }
        return Response.seeOther(URI.create(PagePaths.withQuery(request.redirectUri(), codeAnswer(request, codeValue))))
                .header("Cache-Control", "no-store").build();
    }

    /**
     * The API form's answer: 302 to the client's redirect URI with the code (RFC 6749 §4.1.2), or
     * to the out-of-band page, with a page that links there for clients that do not follow.
     */
    public Response codeFound(AuthorizationRequest request, String codeValue, UriInfo uri) {
        String location = RedirectUris.isOutOfBand(request.redirectUri())
                ? PublicUrls.of(uri).api("/oauth/authorize/" + codeValue)
                : PagePaths.withQuery(request.redirectUri(), codeAnswer(request, codeValue));
        return Response.status(302).location(URI.create(location)).type("text/html; charset=UTF-8")
                .entity(redirect.data("assets", PagePaths.assets(uri)).data("location", location).render())
                .header("Cache-Control", "no-store").build();
    }

    /**
     * prompt=none for a client that is not trusted to hear an answer without the person: our page,
     * naming where the answer would go and who registered the client; the person may follow the
     * link, or not.
     */
    public Response silentAnswerChoice(AuthorizationRequest request, String errorCode, String description, UriInfo uri) {
        Response redirect = redirectError(request, errorCode, description);
        if (redirect.getStatus() != 303) {
            return redirect;
        }
        String location = redirect.getHeaderString("Location");
        String html = leave.data("assets", PagePaths.assets(uri)).data("appName", request.app().name())
                .data("unverified", request.registeredBy()).data("platform", platformName.name())
                .data("location", location).data("host", PageHeaders.origin(request.redirectUri())).render();
        return PageHeaders.page(200, html, null).build();
    }

    /** The person's refusal, back to the client (RFC 6749 §4.1.2.1). */
    public Response redirectError(AuthorizationRequest request, String errorCode, String description) {
        if (RedirectUris.isOutOfBand(request.redirectUri())) {
            return forms.error(400, description);
        }
        Map<String, String> answer = new LinkedHashMap<>();
        answer.put("error", errorCode);
        answer.put("error_description", description);
        if (request.state() != null) {
            answer.put("state", request.state());
        }
        answer.put("iss", Issuer.of(config));
        return Response.seeOther(URI.create(PagePaths.withQuery(request.redirectUri(), answer))).header("Cache-Control", "no-store").build();
    }

    /**
     * The authorization response's parameters (RFC 6749 §4.1.2), with the issuer (RFC 9207), so
     * that a client that talks to several servers knows which one answered (mix-up attacks).
     */
    private Map<String, String> codeAnswer(AuthorizationRequest request, String codeValue) {
        Map<String, String> answer = new LinkedHashMap<>();
        answer.put("code", codeValue);
        if (request.state() != null) {
            answer.put("state", request.state());
        }
        answer.put("iss", Issuer.of(config));
        return answer;
    }

    private static List<Param> hidden(Map<String, String> params) {
        List<Param> list = new ArrayList<>();
        params.forEach((name, value) -> list.add(new Param(name, value)));
        return list;
    }
}
