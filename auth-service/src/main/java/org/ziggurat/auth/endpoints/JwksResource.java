package org.ziggurat.auth.endpoints;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.auth.keys.SigningKeys;

/** The JWK Set (RFC 7517) of the keys that sign ID tokens: the metadata's {@code jwks_uri}. */
@Path("/oauth/jwks")
@Tag(name = "OAuth")
public class JwksResource {

    private final SigningKeys keys;

    JwksResource(SigningKeys keys) {
        this.keys = keys;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(operationId = "getJwks", summary = "Get the signing keys",
            description = "The public keys (RFC 7517) that sign ID tokens, RS256 and ES256: the one that signs now, its "
                    + "successor published ahead of its turn, and retired ones until their tokens have expired. "
                    + "Select a key by the kid of the token's header.")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The JWK Set.", content = @Content(mediaType = "application/json",
            schema = @Schema(type = SchemaType.OBJECT, requiredProperties = "keys",
                    properties = @org.eclipse.microprofile.openapi.annotations.media.SchemaProperty(name = "keys",
                            type = SchemaType.ARRAY, implementation = Object.class))))
    public Uni<Response> jwks() {
        return keys.published().map(set -> Response.ok(set.toString(), MediaType.APPLICATION_JSON)
                .header("Cache-Control", "public, max-age=300").build());
    }
}
