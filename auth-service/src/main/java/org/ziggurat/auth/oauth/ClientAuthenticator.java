package org.ziggurat.auth.oauth;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;
import org.ziggurat.auth.applications.ApplicationRepository;
import org.ziggurat.auth.applications.ApplicationRow;
import org.ziggurat.auth.tokens.TokenCrypto;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Client authentication at the token, revocation and introspection endpoints (RFC 6749 §2.3):
 * HTTP Basic or {@code client_id}/{@code client_secret} form fields, never both; a confidential
 * client must prove its secret, a public client sends its id alone.
 */
@ApplicationScoped
public class ClientAuthenticator {

    private static final Logger LOG = Logger.getLogger("org.ziggurat.auth.security");

    @Inject
    ApplicationRepository applications;

    @Inject
    TokenCrypto crypto;

    /** Who claims to be calling, before any secret is checked. */
    public record Claimed(String clientId, String secret, boolean basic) {
    }

    /** The claimed client, or null when the request names none. */
    public static Claimed claimed(String authorization, OAuthForm form) {
        String formId = form.get("client_id");
        String formSecret = form.get("client_secret");
        if (authorization != null && authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            if (formSecret != null) {
                throw OAuthException.invalidRequest("Use one client authentication method, not two.");
            }
            String decoded;
            try {
                decoded = new String(Base64.getDecoder().decode(authorization.substring(6).trim()), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw OAuthException.invalidClient("The Basic credentials are not valid base64.");
            }
            int colon = decoded.indexOf(':');
            if (colon < 0) {
                throw OAuthException.invalidClient("The Basic credentials are malformed.");
            }
            String id = urlDecode(decoded.substring(0, colon));
            String secret = urlDecode(decoded.substring(colon + 1));
            if (formId != null && !formId.equals(id)) {
                throw OAuthException.invalidRequest("client_id does not match the Basic credentials.");
            }
            return new Claimed(id, secret.isEmpty() ? null : secret, true);
        }
        return formId == null ? null : new Claimed(formId, formSecret, false);
    }

    /** The authenticated application; {@code invalid_client} otherwise. */
    public Uni<ApplicationRow> authenticate(Claimed claimed) {
        if (claimed == null) {
            return Uni.createFrom().failure(OAuthException.invalidClient("Client authentication is required."));
        }
        return applications.byClientId(claimed.clientId()).map(app -> {
            if (app == null) {
                LOG.infof("event=client_authentication_failed client_id=%s reason=unknown", safe(claimed.clientId()));
                throw OAuthException.invalidClient("Client authentication failed.");
            }
            if (app.confidential()) {
                if (!crypto.matches(claimed.secret(), app.clientSecretHash())) {
                    LOG.infof("event=client_authentication_failed client_id=%s reason=secret", app.clientId());
                    throw OAuthException.invalidClient("Client authentication failed.");
                }
            } else if (claimed.secret() != null) {
                throw OAuthException.invalidClient("A public client has no secret.");
            }
            return app;
        });
    }

    /** Confidential clients only (introspection). */
    public Uni<ApplicationRow> authenticateConfidential(Claimed claimed) {
        return authenticate(claimed).map(app -> {
            if (!app.confidential()) {
                throw OAuthException.invalidClient("Only confidential clients may call this endpoint.");
            }
            return app;
        });
    }

    private static String urlDecode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw OAuthException.invalidClient("The Basic credentials are malformed.");
        }
    }

    static String safe(String clientId) {
        return clientId == null ? "-" : clientId.replaceAll("[^A-Za-z0-9_-]", "?").substring(0, Math.min(64, clientId.length()));
    }
}
