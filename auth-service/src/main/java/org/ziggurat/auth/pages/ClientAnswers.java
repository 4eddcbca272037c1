package org.ziggurat.auth.pages;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.Issuer;
import org.ziggurat.auth.authorization.AuthorizationRequest;
import org.ziggurat.auth.clients.PlatformName;
import org.ziggurat.auth.oauth.RedirectUris;
import org.ziggurat.platform.rest.http.PublicUrls;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The authorization endpoint's answers that lead the browser back to the client (RFC 6749
 * §4.1.2): the code, the person's refusal, prompt=none's answer; and our out-of-band page, where
 * a client without a redirect URI finds its code.
 */
@ApplicationScoped
class ClientAnswers {

    private final Template code;
    private final Template redirect;
    private final Template leave;
    private final AuthConfig config;
    private final PlatformName platformName;
    private final PageForms forms;

    ClientAnswers(@Location("code") Template code, @Location("redirect") Template redirect, @Location("leave") Template leave,
            AuthConfig config, PlatformName platformName, PageForms forms) {
        this.code = code;
        this.redirect = redirect;
        this.leave = leave;
        this.config = config;
        this.platformName = platformName;
        this.forms = forms;
    }

    /** The out-of-band page: the code in {@code #authorization_code}. */
    public Response code(String codeValue, UriInfo uri) {
        return PageView.of(code.data("code", codeValue), uri).answer(200).build();
    }

    /** The browser's way on with a code: to the client, or to our out-of-band page. */
    Response codeRedirect(AuthorizationRequest request, String codeValue, UriInfo uri) {
        if (RedirectUris.isOutOfBand(request.redirectUri())) {
            return PagePaths.seeOther(PagePaths.apiPath(uri, "/oauth/authorize/" + codeValue)).build();
        }
        return Response.seeOther(URI.create(PagePaths.withQuery(request.redirectUri(), codeAnswer(request, codeValue))))
                .header("Cache-Control", "no-store").build();
    }

    /**
     * The API form's answer: 302 to the client's redirect URI with the code (RFC 6749 §4.1.2), or
     * to the out-of-band page, with a page that links there for clients that do not follow.
     */
    Response codeFound(AuthorizationRequest request, String codeValue, UriInfo uri) {
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
    Response silentAnswerChoice(AuthorizationRequest request, String errorCode, String description, UriInfo uri) {
        Response redirect = redirectError(request, errorCode, description);
        if (redirect.getStatus() != 303) {
            return redirect;
        }
        String location = redirect.getHeaderString("Location");
        return PageView.of(leave.data("appName", request.app().name())
                .data("unverified", request.registeredBy()).data("platform", platformName.name())
                .data("location", location).data("host", PageHeaders.origin(request.redirectUri())), uri).answer(200).build();
    }

    /** The person's refusal, back to the client (RFC 6749 §4.1.2.1). */
    Response redirectError(AuthorizationRequest request, String errorCode, String description) {
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
}
