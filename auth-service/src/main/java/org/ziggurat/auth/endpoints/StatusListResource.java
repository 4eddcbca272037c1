package org.ziggurat.auth.endpoints;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.ziggurat.auth.tokens.StatusLists;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.rest.openapi.ApiErrors;

import java.util.List;
import java.util.Map;

/**
 * The Token Status List (draft-ietf-oauth-status-list): each list of JWT access tokens' statuses
 * as a signed Status List Token, and the list of lists (the Status List Aggregation, which the
 * metadata's {@code status_list_aggregation_endpoint} names). Public: a resource server fetches
 * them without credentials, and they say nothing of whose tokens they describe.
 */
@Tag(name = "OAuth")
@Path("/oauth/status-lists")
public class StatusListResource {

    /** The Status List Token's media type (§8.1). */
    public static final String MEDIA_TYPE = "application/statuslist+jwt";

    private final StatusLists lists;

    StatusListResource(StatusLists lists) {
        this.lists = lists;
    }

    @GET
    @Path("/{list}")
    @Produces(MEDIA_TYPE)
    @Operation(operationId = "getStatusList", summary = "Get a token status list",
            description = "draft-ietf-oauth-status-list: the statuses of up to 2^20 JWT access tokens, one bit each "
                    + "(1: revoked), as a JWT of type statuslist+jwt signed with a key of /oauth/jwks. A JWT access "
                    + "token's status.status_list names its list (uri) and its bit (idx). A revocation shows within a "
                    + "second; keep a list no longer than its ttl (seconds).")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The Status List Token.",
            headers = @Header(name = "Cache-Control", description = "public, max-age the token's ttl",
                    schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MEDIA_TYPE, schema = @Schema(type = SchemaType.STRING,
                    description = "A JWS in compact serialization.")))
    @APIResponse(responseCode = "404", ref = ApiErrors.NOT_FOUND)
    @APIResponse(responseCode = "406", description = "The Accept header does not admit application/statuslist+jwt.",
            content = @Content(mediaType = "application/problem+json", schema = @Schema(ref = ApiErrors.PROBLEM_SCHEMA)))
    @APIResponse(responseCode = "400", ref = ApiErrors.BAD_REQUEST)
    @APIResponse(responseCode = "501", description = "Historical resolution (time) is not offered.",
            content = @Content(mediaType = "application/problem+json", schema = @Schema(ref = ApiErrors.PROBLEM_SCHEMA)))
    public Uni<Response> list(@Parameter(description = "The list's number, from a token's status.status_list.uri.")
            @PathParam("list") String list,
            @Parameter(description = "Historical resolution (§8.4): not offered, answered 501.") @QueryParam("time") String time,
            @jakarta.ws.rs.core.Context jakarta.ws.rs.core.UriInfo uri) {
        java.util.List<String> times = uri.getQueryParameters().get("time");
        if (times != null) {
            // A time that is no NumericDate (an empty one too) is a bad request, not a question this server cannot answer.
            if (times.size() != 1 || time == null || !time.matches("[0-9]{1,12}")) {
                throw ProblemException.badRequest("time must be one NumericDate (seconds since 1970).");
            }
            // §8.4: a server without historical resolution says so rather than serve today's list as another time's.
            throw new ProblemException(501, "Not Implemented", "Only the current status lists are served; omit time.");
        }
        int k = number(list);
        return lists.token(k).map(jwt -> {
            if (jwt == null) {
                throw notFound();
            }
            return Response.ok(jwt, MEDIA_TYPE).header("Cache-Control", "public, max-age=" + lists.ttlSeconds()).build();
        });
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(operationId = "getStatusListAggregation", summary = "List the token status lists",
            description = "The Status List Aggregation (draft-ietf-oauth-status-list §9): the address of every status "
                    + "list, for a resource server that fetches them ahead of the tokens.")
    @SecurityRequirementsSet
    @APIResponse(responseCode = "200", description = "The lists' addresses.", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = OAuthDocs.StatusListAggregation.class)))
    public Uni<Map<String, List<String>>> aggregation() {
        return lists.uris().map(uris -> Map.of("status_lists", uris));
    }

    /** A list's number as its uri says it: decimal, without sign or leading zeros. Anything else is no list's. */
    private static int number(String list) {
        if (list == null || !list.matches("0|[1-9][0-9]{0,8}")) {
            throw notFound();
        }
        return Integer.parseInt(list);
    }

    private static ProblemException notFound() {
        return ProblemException.notFound("No token status list has that number.");
    }
}
