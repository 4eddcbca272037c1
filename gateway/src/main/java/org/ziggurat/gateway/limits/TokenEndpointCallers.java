package org.ziggurat.gateway.limits;

import io.netty.handler.codec.http.QueryStringDecoder;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * Who calls the token endpoint, which is limited per client: its id from HTTP Basic, or the
 * form's {@code client_id}. The gateway reads a token request's body only for that, and only a
 * small one.
 */
public final class TokenEndpointCallers {

    static final String TOKEN_ENDPOINT = "/oauth/token";

    /**
     * The OAuth endpoints limited per address and per client, each in windows of its own: the
     * token endpoint (a password grant costs an Argon2id hash), and the two that store a row for
     * nothing but a public client's id (a device code, a pushed request).
     */
    static final List<String> LIMITED = List.of(TOKEN_ENDPOINT, "/oauth/device_authorization", "/oauth/par");

    public static boolean limited(String path) {
        return LIMITED.contains(path);
    }

    /**
     * The largest token request body the gateway reads to find the client it names; the same as
     * auth-service's own limit. Every other body is streamed, never buffered.
     */
    static final int TOKEN_FORM_BYTES = 16 * 1024;

    private TokenEndpointCallers() {
    }

    /** A form body of a declared length the gateway may read (a chunked one is refused by BodyLimits). */
    public static boolean smallForm(HttpServerRequest request) {
        String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        if (type == null || !type.regionMatches(true, 0, "application/x-www-form-urlencoded", 0, 33) || length == null) {
            return false;
        }
        try {
            long declared = Long.parseLong(length.trim());
            return declared > 0 && declared <= TOKEN_FORM_BYTES;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The form's one {@code client_id}, or null (none, repeated, not a plausible id, not form encoding). */
    public static String formClientId(Buffer form) {
        try {
            List<String> ids = new QueryStringDecoder(form.toString(StandardCharsets.UTF_8), false).parameters().get("client_id");
            String id = ids == null || ids.size() != 1 ? null : ids.get(0);
            return id == null || id.isEmpty() || id.length() > 64 ? null : id;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The client id of an HTTP Basic header, or null (no header, another scheme, malformed). */
    public static String basicClientId(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        try {
            String decoded = new String(Base64.getDecoder().decode(authorization.substring(6).trim()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            String id = colon < 0 ? null : decoded.substring(0, colon);
            return id == null || id.isEmpty() || id.length() > 64 ? null : id;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
