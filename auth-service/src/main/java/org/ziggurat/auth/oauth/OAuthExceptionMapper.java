package org.ziggurat.auth.oauth;

import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.util.LinkedHashMap;
import java.util.Map;

/** RFC 6749 error bodies for /oauth/**, never cached, with the error's challenge. */
public class OAuthExceptionMapper {

    @ServerExceptionMapper
    public Response map(OAuthException e) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("error", e.error().code());
        body.put("error_description", e.getMessage());
        Response.ResponseBuilder builder = Response.status(e.error().status())
                .type("application/json")
                .header("Cache-Control", "no-store")
                .header("Pragma", "no-cache")
                .entity(body);
        if (e.error().challenge() != null) {
            builder.header("WWW-Authenticate", e.error().challenge());
        }
        if (e.dpopNonce() != null) {
            builder.header("DPoP-Nonce", e.dpopNonce());
        }
        if (e.retryAfterSeconds() != null) {
            builder.header("Retry-After", e.retryAfterSeconds());
        }
        return builder.build();
    }
}
