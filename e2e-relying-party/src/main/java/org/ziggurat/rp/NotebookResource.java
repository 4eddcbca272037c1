package org.ziggurat.rp;

import io.quarkus.oidc.IdToken;
import io.quarkus.oidc.UserInfo;
import io.quarkus.security.Authenticated;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * A tool's page behind sign-in: what quarkus-oidc learned from the ID token (validated against the
 * provider's JWKS) and from userinfo, shown so that the browser test can read it.
 */
@Path("/")
public class NotebookResource {

    @Inject
    @IdToken
    JsonWebToken idToken;

    @Inject
    UserInfo userInfo;

    @GET
    @Path("/notebook")
    @Authenticated
    @Produces(MediaType.TEXT_HTML)
    public String notebook() {
        return "<html><body><h1>Notebook</h1>"
                + "<p id=\"subject\">" + escape(idToken.getSubject()) + "</p>"
                + "<p id=\"issuer\">" + escape(idToken.getIssuer()) + "</p>"
                + "<p id=\"username\">" + escape(userInfo.getString("preferred_username")) + "</p>"
                + "<p id=\"email\">" + escape(userInfo.getString("email")) + "</p>"
                + "<a id=\"logout\" href=\"/logout\">Sign out</a></body></html>";
    }

    @GET
    @Path("/signed-out")
    @Produces(MediaType.TEXT_HTML)
    public String signedOut() {
        return "<html><body><p id=\"signed_out\">Signed out of the notebook.</p></body></html>";
    }

    private static String escape(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
