package org.ziggurat.auth.clients;

import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.OAuthForm;
import org.jboss.logging.Logger;
import org.ziggurat.auth.clients.ApplicationRow;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.function.BiPredicate;
import java.util.regex.Pattern;

/**
 * The rules of client authentication at the token, revocation and introspection endpoints (RFC
 * 6749 §2.3), apart from the look-up of the application: HTTP Basic or {@code client_id} and
 * {@code client_secret} form fields, never both; a confidential client must prove its secret, a
 * public client sends its id alone. {@link ClientAuthenticator} applies them to the stored
 * application.
 */
public final class ClientCredentials {

    private static final Logger LOG = Logger.getLogger("org.ziggurat.auth.security");
    private static final Pattern CLIENT_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private ClientCredentials() {
    }

    /**
     * Who claims to be calling, before any secret is checked: by a secret (HTTP Basic or the form), by
     * its id alone (a public client), or by a signed JWT ({@code assertion}, RFC 7523: private_key_jwt).
     */
    public record Claimed(String clientId, String secret, boolean basic, String assertion) {
        public Claimed(String clientId, String secret, boolean basic) {
            this(clientId, secret, basic, null);
        }
    }

    /** The claimed client, or null when the request names none. */
    public static Claimed claimed(String authorization, OAuthForm form) {
        String formId = form.get("client_id");
        String formSecret = form.get("client_secret");
        String assertionType = form.get("client_assertion_type");
        String assertion = form.get("client_assertion");
        if (assertionType != null || assertion != null) {
            return asserted(authorization, formId, formSecret, assertionType, assertion);
        }
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

    /** RFC 7521 §4.2 with RFC 7523 §2.2: the client is the assertion's subject, and nothing else authenticates it. */
    private static Claimed asserted(String authorization, String formId, String formSecret, String assertionType,
            String assertion) {
        if (!ClientAssertions.TYPE.equals(assertionType) || assertion == null || assertion.isBlank()) {
            throw OAuthException.invalidRequest("client_assertion_type must be " + ClientAssertions.TYPE
                    + ", with a client_assertion.");
        }
        if (formSecret != null || (authorization != null && authorization.regionMatches(true, 0, "Basic ", 0, 6))) {
            throw OAuthException.invalidRequest("Use one client authentication method, not two.");
        }
        String subject = ClientAssertions.subject(assertion);
        if (subject == null) {
            throw OAuthException.invalidClient("The client assertion is not a signed JWT naming its client (sub).");
        }
        if (formId != null && !formId.equals(subject)) {
            throw OAuthException.invalidClient("client_id is not the client assertion's subject.");
        }
        return new Claimed(subject, null, false, assertion);
    }

    /**
     * Whether a value can be a client id at all: ours are 20 letters and digits, the platform's
     * own clients are named with dashes. Anything else (a NUL, an emoji, a page of text) is
     * refused as {@code invalid_client} before any look-up.
     */
    public static boolean plausibleClientId(String clientId) {
        return clientId != null && CLIENT_ID.matcher(clientId).matches();
    }

    /** Before the look-up: {@code invalid_client} when nothing, or nothing plausible, is claimed. */
    public static void requireLookup(Claimed claimed) {
        if (claimed == null) {
            throw OAuthException.invalidClient("Client authentication is required.");
        }
        if (!plausibleClientId(claimed.clientId())) {
            LOG.infof("event=client_authentication_failed client_id=%s reason=unknown", safe(claimed.clientId()));
            throw OAuthException.invalidClient("Client authentication failed.");
        }
    }

    /**
     * The application found for the claimed id (null: none), once the claim proves it;
     * {@code invalid_client} otherwise. {@code secretMatches} compares a presented secret with
     * the stored hash, and is asked only of a confidential client.
     */
    public static ApplicationRow proven(Claimed claimed, ApplicationRow app, BiPredicate<String, byte[]> secretMatches) {
        if (app == null) {
            LOG.infof("event=client_authentication_failed client_id=%s reason=unknown", safe(claimed.clientId()));
            throw OAuthException.invalidClient("Client authentication failed.");
        }
        if (claimed.assertion() != null) {
            LOG.infof("event=client_authentication_failed client_id=%s reason=method", app.clientId());
            throw OAuthException.invalidClient("This client did not register private_key_jwt: it authenticates as it registered.");
        }
        if (app.confidential()) {
            if (!secretMatches.test(claimed.secret(), app.clientSecretHash())) {
                LOG.infof("event=client_authentication_failed client_id=%s reason=secret", app.clientId());
                throw OAuthException.invalidClient("Client authentication failed.");
            }
        } else if (claimed.secret() != null) {
            throw OAuthException.invalidClient("A public client has no secret.");
        }
        return app;
    }

    /** Introspection: confidential clients only. */
    public static ApplicationRow confidentialOnly(ApplicationRow app) {
        if (!app.confidential()) {
            throw OAuthException.invalidClient("Only confidential clients may call this endpoint.");
        }
        return app;
    }

    private static String urlDecode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw OAuthException.invalidClient("The Basic credentials are malformed.");
        }
    }

    /** For the log: at most 64 characters, anything but an id's characters as '?'. */
    static String safe(String clientId) {
        if (clientId == null) {
            return "-";
        }
        // Replaced first, then cut: a character outside the BMP (an emoji) is two chars and one '?',
        // and cutting at the original length ran past the end (a 500 for client_id=😀).
        String printable = clientId.replaceAll("[^A-Za-z0-9_-]", "?");
        return printable.substring(0, Math.min(64, printable.length()));
    }
}
