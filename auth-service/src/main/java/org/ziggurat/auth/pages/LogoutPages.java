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
        String returnHost = returnTo == null ? null : PageHeaders.origin(returnTo);
        return PageView.of(logout.data("username", session.username()).data("params", AuthorizePages.Param.all(params))
                .data("returnHost", returnHost), uri)
                .posting("/oauth/logout").signedIn(session).leadingTo(returnHost).answer(200).build();
    }

    /** Signed out: to the client's post-logout URI, or our page; the session cookie goes either way. */
    Response signedOut(String returnTo, UriInfo uri) {
        Response.ResponseBuilder answer = returnTo != null
                ? Response.seeOther(URI.create(returnTo)).header("Cache-Control", "no-store")
                : PageView.of(signedOut.data("returnTo", null).data("returnHost", null), uri).answer(200);
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
        return PageView.of(signedOut.data("returnTo", returnTo).data("returnHost", PageHeaders.origin(returnTo)), uri).answer(200)
                .cookie(PageHeaders.cookie(LoginSessions.COOKIE, "", PagePaths.secure(uri), 0)).build();
    }
}
