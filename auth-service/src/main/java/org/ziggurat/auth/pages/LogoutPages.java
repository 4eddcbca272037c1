package org.ziggurat.auth.pages;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.auth.authorization.LoginSessions;

import java.net.URI;
import java.util.Map;

/** RP-initiated logout's pages: the question, and signed out (to the client, or our page). */
@ApplicationScoped
class LogoutPages {

    private final Template logout;
    private final Template signedOut;

    LogoutPages(@Location("logout") Template logout, @Location("signed_out") Template signedOut) {
        this.logout = logout;
        this.signedOut = signedOut;
    }

    /** RP-initiated logout's question; its form may lead to where the browser goes after. */
    Response logoutConfirmation(LoginSessions.Session session, Map<String, String> params, String returnTo, UriInfo uri) {
        String html = logout.data("assets", PagePaths.assets(uri)).data("action", PagePaths.apiPath(uri, "/oauth/logout"))
                .data("username", session.username()).data("csrf", session.csrfToken()).data("params", AuthorizePages.Param.all(params))
                .data("returnHost", returnTo == null ? null : PageHeaders.origin(returnTo)).render();
        return PageHeaders.page(200, html, returnTo == null ? null : PageHeaders.origin(returnTo)).build();
    }

    /** Signed out: to the client's post-logout URI, or our page; the session cookie goes either way. */
    Response signedOut(String returnTo, UriInfo uri) {
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
    Response signedOutWithChoice(String returnTo, UriInfo uri) {
        if (returnTo == null) {
            return signedOut(null, uri);
        }
        String html = signedOut.data("assets", PagePaths.assets(uri)).data("returnTo", returnTo)
                .data("returnHost", PageHeaders.origin(returnTo)).render();
        return PageHeaders.page(200, html, null)
                .cookie(PageHeaders.cookie(LoginSessions.COOKIE, "", PagePaths.secure(uri), 0)).build();
    }
}
