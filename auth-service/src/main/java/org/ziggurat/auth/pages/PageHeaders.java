package org.ziggurat.auth.pages;

import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;

import java.net.URI;

/**
 * What every page of the authorization server is served with: no framing, a strict content
 * security policy (our stylesheet and our one script, which passkeys need, nothing inline or
 * from elsewhere), no caching, no referrer.
 */
public final class PageHeaders {

    private PageHeaders() {
    }

    /** {@code formTarget}: an origin the page's form may lead to (the client's, after consent), or null. */
    public static Response.ResponseBuilder page(int status, String html, String formTarget) {
        return page(status, html, formTarget, null);
    }

    /** {@code imageSource}: the one address besides this site an image may come from (an application's logo), or null. */
    static Response.ResponseBuilder page(int status, String html, String formTarget, String imageSource) {
        String formAction = "'self'" + (formTarget == null ? "" : " " + formTarget);
        String images = "'self'" + (imageSource == null ? "" : " " + imageSource);
        return Response.status(status).type("text/html; charset=UTF-8").entity(html)
                .header("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src " + images + "; "
                        + "form-action " + formAction + "; frame-ancestors 'none'; base-uri 'none'")
                .header("X-Frame-Options", "DENY")
                .header("X-Content-Type-Options", "nosniff")
                .header("Referrer-Policy", "no-referrer")
                .header("Cache-Control", "no-store");
    }

    /**
     * The origin of a redirect URI, for the consent page's form-action; a private-use scheme's
     * scheme-source ({@code edu.kit.data.oidc-agent:}); null for the out-of-band value.
     */
    public static String origin(String redirectUri) {
        try {
            URI uri = URI.create(redirectUri);
            if (uri.getHost() == null) {
                return org.ziggurat.auth.oauth.RedirectUris.isPrivateUse(redirectUri) ? uri.getScheme() + ":" : null;
            }
            return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "");
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** {@code response} with one more cookie. */
    static Response withCookie(Response response, NewCookie cookie) {
        return Response.fromResponse(response).cookie(cookie).build();
    }

    public static NewCookie cookie(String name, String value, boolean secure, int maxAgeSeconds) {
        return new NewCookie.Builder(name).value(value).path("/").httpOnly(true).secure(secure)
                .sameSite(NewCookie.SameSite.LAX).maxAge(maxAgeSeconds).build();
    }
}
