package org.ziggurat.rp;

import io.quarkus.security.Authenticated;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.jwt.JsonWebToken;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A storage system's API, as a resource server that checks Ziggurat's JWT access tokens itself
 * (quarkus-oidc, tenant "storage"): what the verified token says, for the test to read.
 */
@Path("/storage")
public class StorageResource {

    @Inject
    JsonWebToken accessToken;

    @GET
    @Path("/whoami")
    @Authenticated
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, Object> whoami() {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("sub", accessToken.getSubject());
        claims.put("aud", accessToken.getAudience());
        claims.put("scope", accessToken.getClaim("scope"));
        claims.put("client_id", accessToken.getClaim("client_id"));
        claims.put("iss", accessToken.getIssuer());
        return claims;
    }
}
