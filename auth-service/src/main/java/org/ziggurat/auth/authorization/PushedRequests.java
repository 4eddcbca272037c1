package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.tokens.PushedRequestRepository;
import org.ziggurat.auth.tokens.TokenRules;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Pushed authorization requests (RFC 9126): the client sends its request's parameters first, and
 * the browser carries only the request_uri. Checked as the authorization endpoint checks a request.
 */
@ApplicationScoped
public class PushedRequests {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final AuthorizationRequests requests;
    private final TokenCrypto crypto;
    private final AuthConfig config;
    private final PushedRequestRepository pushed;
    private final RequestObjects requestObjects;

    PushedRequests(AuthorizationRequests requests, TokenCrypto crypto, AuthConfig config, PushedRequestRepository pushed,
            RequestObjects requestObjects) {
        this.requestObjects = requestObjects;
        this.requests = requests;
        this.crypto = crypto;
        this.config = config;
        this.pushed = pushed;
    }

    /** RFC 9126 §2: the stored request_uri of a pushed authorization request, and how long it is good. */
    public record Pushed(String requestUri, long expiresIn) {
    }

    /**
     * RFC 9126 §2.1: the authenticated client pushes an authorization request, checked as the
     * authorization endpoint checks one; errors go back to the client, as from the token endpoint.
     */
    public Uni<Pushed> push(ApplicationRow client, Map<String, String> params) {
        if (params.containsKey("request_uri")) {
            throw OAuthException.invalidRequest("A pushed request may not carry a request_uri.");
        }
        if (params.get("client_id") != null && !params.get("client_id").equals(client.clientId())) {
            throw OAuthException.invalidRequest("client_id is not the authenticated client's.");
        }
        Map<String, String> withClient = new LinkedHashMap<>(params);
        withClient.put("client_id", client.clientId());
        if (withClient.get("request") == null) {
            return checkedAndStored(client, withClient);
        }
        // RFC 9126 §3: a request object pushed is taken here, as the authorization endpoint takes one,
        // so that what is stored is the request's own parameters.
        return requestObjects.merged(client, withClient)
                .onFailure(RequestObjects.RequestObjectRefused.class).transform(e -> new OAuthException(
                        OAuthError.INVALID_REQUEST_OBJECT, e.getMessage().replaceFirst("^invalid_request_object: ", "")))
                .chain(merged -> checkedAndStored(client, merged));
    }

    private Uni<Pushed> checkedAndStored(ApplicationRow client, Map<String, String> withClient) {
        AuthorizationRequest request = AuthorizationRequest.of(client, withClient);
        if (request == null) {
            throw OAuthException.invalidRequest(client.ownerId() == null ? "A platform client cannot act for a person."
                    : "The redirect_uri is missing or not registered for this client.");
        }
        OAuthException problem = requests.problem(request);
        if (problem != null) {
            throw problem;
        }
        String requestUri = AuthorizationRequest.REQUEST_URI_PREFIX + crypto.newCsrfToken();
        Map<String, String> stored = new LinkedHashMap<>(request.params());
        stored.remove("client_id");
        return pushed.insert(crypto.hash(requestUri), client.id(), stored, PUSHED_LIFETIME, config.livePushedRequestsPerClient())
                .map(kept -> {
                    if (!kept) {
                        EVENTS.warnf("event=pushed_request_refused client_id=%s reason=live_requests_at_cap cap=%d",
                                client.clientId(), config.livePushedRequestsPerClient());
                        throw new OAuthException(OAuthError.SLOW_DOWN, "Too many pushed requests of this application are "
                                + "live now. Try again shortly.", TokenRules.LIVE_CAP_RETRY_AFTER);
                    }
                    return new Pushed(requestUri, PUSHED_LIFETIME.toSeconds());
                });
    }

    /** How long a pushed request waits for the browser (RFC 9126 §2.2's expires_in). */
    static final java.time.Duration PUSHED_LIFETIME = java.time.Duration.ofSeconds(60);
}
