package org.ziggurat.auth.oauth;

import jakarta.ws.rs.core.Response;
import org.ziggurat.auth.oauth.IssuedTokens;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The token response in the spec's three forms: JSON; the {@code OAuth} XML document; and, for the
 * authorization-code exchange when the client asked for neither, form encoding. Never cached.
 */
public final class TokenResponses {

    private TokenResponses() {
    }

    /**
     * The tokens in the format the client accepts: JSON unless it asks for form encoding or XML
     * ({@code Accept}). OpenID Connect Core §3.1.3.3 and RFC 6749 §5.1 answer JSON, and standard
     * clients (mod_auth_openidc among them) send no Accept and read JSON only; the spec's
     * form-encoded default for the code exchange was one platform's legacy, kept for the clients
     * that ask for it.
     */
    public static Response of(IssuedTokens issued, String accept) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("access_token", issued.accessToken());
        if (issued.issuedTokenType() != null) {
            fields.put("issued_token_type", issued.issuedTokenType());
        }
        // RFC 9449 §5: a bound token's type is DPoP; a bearer token's stays the spec's lower-case bearer.
        fields.put("token_type", issued.dpop() ? "DPoP" : "bearer");
        fields.put("expires_in", issued.expiresIn());
        if (issued.refreshToken() != null) {
            fields.put("refresh_token", issued.refreshToken());
        }
        fields.put("scope", Scopes.display(issued.scopes()));
        fields.put("created_at", issued.createdAt());
        if (issued.idToken() != null) {
            fields.put("id_token", issued.idToken());
        }
        String a = accept == null ? "" : accept.toLowerCase();
        Response.ResponseBuilder builder;
        if (a.contains("application/json")) {
            builder = Response.ok(fields, "application/json");
        } else if (a.contains("application/xml") || a.contains("text/xml")) {
            builder = Response.ok(xml(fields), "application/xml");
        } else if (a.contains("application/x-www-form-urlencoded")) {
            builder = Response.ok(form(fields), "application/x-www-form-urlencoded");
        } else {
            builder = Response.ok(fields, "application/json");
        }
        return builder.header("Cache-Control", "no-store").header("Pragma", "no-cache").build();
    }

    static String xml(Map<String, Object> fields) {
        StringBuilder out = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<OAuth>");
        fields.forEach((name, value) -> out.append('<').append(name).append('>').append(escape(String.valueOf(value)))
                .append("</").append(name).append('>'));
        return out.append("</OAuth>\n").toString();
    }

    static String form(Map<String, Object> fields) {
        StringBuilder out = new StringBuilder();
        fields.forEach((name, value) -> {
            if (out.length() > 0) {
                out.append('&');
            }
            out.append(name).append('=').append(URLEncoder.encode(String.valueOf(value), StandardCharsets.UTF_8));
        });
        return out.toString();
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
