package org.ziggurat.auth.authorization;

import org.ziggurat.auth.clients.ClientCredentials;
import org.ziggurat.auth.clients.ApplicationRow;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An authorization request (RFC 6749 §4.1.1) whose client and redirect URI are known good, so
 * that errors may now go back to the client. {@code params} are the request's own parameters, as
 * the pages carry them from step to step, with the redirect URI filled in when the client has
 * only one.
 */
public record AuthorizationRequest(ApplicationRow app, String redirectUri, Map<String, String> params) {

    /** The parameters of the authorization request, in the order the pages carry them. */
    public static final List<String> PARAMETERS = List.of("response_type", "client_id", "redirect_uri", "scope",
            "state", "code_challenge", "code_challenge_method");

    public String state() {
        return params.get("state");
    }

    public String scope() {
        return params.get("scope");
    }

    public String codeChallenge() {
        return params.get("code_challenge");
    }

    /**
     * The client and redirect URI of these parameters checked against the application: null when
     * either is unknown (never a redirect then: RFC 9700 §4.11, no open redirector).
     */
    static AuthorizationRequest of(ApplicationRow app, Map<String, String> params) {
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
        return new AuthorizationRequest(app, redirectUri, all);
    }

    /** Whether a client id is worth looking up at all. */
    static boolean plausibleClient(Map<String, String> params) {
        return ClientCredentials.plausibleClientId(params.get("client_id"));
    }
}
