package org.ziggurat.auth.pages;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateData;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.authorization.AuthorizationRequest;
import org.ziggurat.auth.clients.PlatformName;
import org.ziggurat.auth.federation.UpstreamProviders;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.passkeys.PasskeyChallenges;
import org.ziggurat.auth.passkeys.Passkeys;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pages of the authorization endpoint in a browser: sign-in (which the device, account and
 * federation pages show too) and consent. Its answers to the client are {@link ClientAnswers}'.
 */
@ApplicationScoped
public class AuthorizePages {

    private final Template login;
    private final Template consent;
    private final TokenCrypto crypto;
    private final AuthConfig config;
    private final PlatformName platformName;
    private final Passkeys passkeys;
    private final UpstreamProviders providers;

    public AuthorizePages(@Location("login") Template login, @Location("consent") Template consent, TokenCrypto crypto,
            AuthConfig config, PlatformName platformName, Passkeys passkeys, UpstreamProviders providers) {
        this.login = login;
        this.consent = consent;
        this.crypto = crypto;
        this.config = config;
        this.platformName = platformName;
        this.passkeys = passkeys;
        this.providers = providers;
    }

    /** A hidden field of a form, which carries a page's parameter back. */
    @TemplateData
    public record Param(String name, String value) {

        static List<Param> all(Map<String, String> params) {
            List<Param> list = new ArrayList<>();
            params.forEach((name, value) -> list.add(new Param(name, value)));
            return list;
        }
    }

    /** A provider's button on the sign-in page. */
    @TemplateData
    public record ProviderButton(String id, String name) {
    }

    /** The sign-in page, with a fresh double-submit CSRF cookie. */
    public Response login(AuthorizationRequest request, UriInfo uri, String message, String loginName, int status) {
        return loginPage("/oauth/authorize", request.app().name(), request.registeredBy(), request.frontChannel(),
                formTarget(request), ApplicationLinks.of(request.app()), uri, message, loginName, status);
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
        return loginPage(path, appName, unverified, params, formTarget, null, uri, message, loginName, status);
    }

    /** {@code links}: what the application registered for the page to show of it (null: nothing). */
    Response loginPage(String path, String appName, String unverified, Map<String, String> params, String formTarget,
            ApplicationLinks links, UriInfo uri, String message, String loginName, int status) {
        return PageView.of(login.data("appName", appName).data("unverified", unverified).data("platform", platformName.name())
                .data("error", message).data("login", loginName).data("params", Param.all(params))
                .data("passkeyOptions", passkeys.signInOptions(PasskeyChallenges.Ceremony.SIGN_IN, 0))
                .data("forgot", PagePaths.apiPath(uri, "/account/password/recovery"))
                .data("providers", providers.all().stream().map(p -> new ProviderButton(p.id(), p.displayName())).toList())
                .data("federationStart", PagePaths.apiPath(uri, FederationResource.START)).data("returnPath", path), uri)
                .posting(path).beforeSession(crypto.newCsrfToken()).leadingTo(formTarget).showing(links).answer(status).build();
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
        String target = formTarget(request);
        return PageView.of(consent.data("appName", request.app().name()).data("username", session.username())
                .data("unverified", request.registeredBy()).data("platform", platformName.name())
                .data("scopes", ScopeDescriptions.describe(scopes))
                .data("redirectHost", target == null ? "this page" : target)
                .data("params", Param.all(request.frontChannel())), uri)
                .posting("/oauth/authorize").signedIn(session).leadingTo(target).showing(ApplicationLinks.of(request.app()))
                .answer(200).build();
    }
}
