package org.ziggurat.rs;

import io.quarkus.oidc.TokenIntrospection;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.jwt.JsonWebToken;

import java.util.LinkedHashMap;
import java.util.Map;

/** The archive's API: who the token speaks for, and how the archive knew (a JWT checked here, or introspection). */
@Path("/archive")
public class ArchiveResource {

    @Inject
    SecurityIdentity identity;

    @Inject
    JsonWebToken jwt;

    @GET
    @Path("/whoami")
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, Object> whoami() {
        Map<String, Object> answer = new LinkedHashMap<>();
        TokenIntrospection introspection = identity.getAttribute("introspection");
        if (introspection != null) {
            answer.put("checked_by", "introspection");
            answer.put("sub", introspection.getString("sub"));
            answer.put("scope", introspection.getString("scope"));
            answer.put("client_id", introspection.getString("client_id"));
            answer.put("aud", introspection.get("aud"));
        } else {
            answer.put("checked_by", "jwt");
            answer.put("sub", jwt.getSubject());
            answer.put("scope", jwt.getClaim("scope"));
            answer.put("client_id", jwt.getClaim("client_id"));
            answer.put("aud", jwt.getAudience());
        }
        return answer;
    }
}
