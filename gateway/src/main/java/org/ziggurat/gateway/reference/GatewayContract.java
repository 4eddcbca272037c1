package org.ziggurat.gateway.reference;

import org.ziggurat.gateway.limits.TokenEndpointCallers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the gateway itself adds to every operation of the merged document, since it answers
 * before (or instead of) the service: the rate limit's headers on every answer and its 429
 * ({@code Refusals}), the 401 of a bad access token on the API's routes ({@code AccessTokens},
 * {@code Identities}), the 413 of a body past the route's limit on any request (BodyLimits), and
 * the 503 or 504 of a service it cannot reach ({@code UpstreamProxies}).
 * Also the document's own framing: its servers (the version prefixes the gateway accepts), absolute
 * OAuth URLs, and nothing that only the services' build tools read.
 */
final class GatewayContract {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "options", "head");
    static final String TOO_MANY_REQUESTS = "TooManyRequests";
    static final String SERVICE_UNAVAILABLE = "ServiceUnavailable";
    static final String GATEWAY_TIMEOUT = "GatewayTimeout";
    static final String RATE_LIMIT = "X-RateLimit-";
    static final String URI_TOO_LONG = "UriTooLong";

    private GatewayContract() {
    }

    static void apply(ObjectNode merged, String publicBaseUrl, boolean rateLimited) {
        String base = publicBaseUrl.endsWith("/") ? publicBaseUrl.substring(0, publicBaseUrl.length() - 1) : publicBaseUrl;
        ArrayNode servers = merged.putArray("servers");
        servers.addObject().put("url", base).put("description", "The API.");
        servers.addObject().put("url", base + "/v1").put("description", "The same API under its version prefix.");
        ObjectNode components = merged.has("components") ? (ObjectNode) merged.get("components") : merged.putObject("components");
        ObjectNode responses = components.has("responses") ? (ObjectNode) components.get("responses")
                : components.putObject("responses");
        ObjectNode headers = components.has("headers") ? (ObjectNode) components.get("headers") : components.putObject("headers");
        headers.set(RATE_LIMIT + "Limit", header("Requests allowed in the current window.", "integer"));
        headers.set(RATE_LIMIT + "Remaining", header("Requests left in the current window.", "integer"));
        headers.set(RATE_LIMIT + "Reset", header("When the window ends, in Unix seconds.", "integer"));
        ObjectNode tooMany = problemResponse("The caller's rate limit is spent until X-RateLimit-Reset (per access token, "
                + "or per address when anonymous; the token endpoint per address and per client).");
        tooMany.putObject("headers").set("Retry-After", header("Seconds until the window ends.", "integer"));
        responses.set(TOO_MANY_REQUESTS, tooMany);
        ObjectNode unavailable = problemResponse("The service behind this route, or the checking of access tokens, is "
                + "unavailable for a moment. Try again after Retry-After.");
        unavailable.putObject("headers").set("Retry-After", header("Seconds to wait.", "integer"));
        responses.set(SERVICE_UNAVAILABLE, unavailable);
        responses.set(GATEWAY_TIMEOUT, problemResponse("The service behind this route did not answer in time."));
        // The HTTP server's own refusal, before any route: no body, and the connection closes.
        responses.set(URI_TOO_LONG, JSON.objectNode().put("description", "The request line is longer than the server reads."));
        oauthUrls(components.path("securitySchemes"), base);
        stripBuildExtensions(merged);
        merged.path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(op -> {
            if (METHODS.contains(op.getKey())) {
                operation(path.getKey(), (ObjectNode) op.getValue(), rateLimited);
            }
        }));
    }

    private static void operation(String path, ObjectNode operation, boolean rateLimited) {
        ObjectNode responses = (ObjectNode) operation.path("responses");
        boolean oauth = path.startsWith("/oauth/") || path.startsWith("/.well-known/") || path.startsWith("/account/");
        if (!oauth && !responses.has("401")) {
            // A token that is malformed, unknown, expired or revoked: refused before any service sees it.
            responses.putObject("401").put("$ref", "#/components/responses/Unauthorized");
        }
        boolean limited = rateLimited && (!oauth || TokenEndpointCallers.limited(path));
        if (limited) {
            JsonNode existing = responses.get("429");
            if (existing == null) {
                responses.putObject("429").put("$ref", "#/components/responses/" + TOO_MANY_REQUESTS);
            } else if (existing.has("content")) {
                // The service's own 429 (the token endpoint's slow_down) beside the gateway's.
                ((ObjectNode) existing.get("content")).putObject("application/problem+json").putObject("schema")
                        .put("$ref", "#/components/schemas/Problem");
            }
        }
        if (!responses.has("400")) {
            // A request the gateway or the HTTP server cannot read: an address it cannot decode, a
            // malformed header or token parameter.
            responses.putObject("400").put("$ref", "#/components/responses/BadRequest");
        }
        if (!responses.has("414")) {
            responses.putObject("414").put("$ref", "#/components/responses/" + URI_TOO_LONG);
        }
        if (!responses.has("413")) {
            // BodyLimits, ahead of every route: a body past the route's limit, whatever the method.
            responses.putObject("413").put("$ref", "#/components/responses/PayloadTooLarge");
        }
        if (!responses.has("503")) {
            responses.putObject("503").put("$ref", "#/components/responses/" + SERVICE_UNAVAILABLE);
        }
        if (!responses.has("504")) {
            responses.putObject("504").put("$ref", "#/components/responses/" + GATEWAY_TIMEOUT);
        }
        if (limited) {
            responses.fields().forEachRemaining(r -> {
                if (!r.getValue().has("$ref")) {
                    ObjectNode h = r.getValue().has("headers") ? (ObjectNode) r.getValue().get("headers")
                            : ((ObjectNode) r.getValue()).putObject("headers");
                    for (String name : List.of("Limit", "Remaining", "Reset")) {
                        h.putObject(RATE_LIMIT + name).put("$ref", "#/components/headers/" + RATE_LIMIT + name);
                    }
                }
            });
        }
    }

    /** The services describe their OAuth flows with paths; clients need the public URLs. */
    private static void oauthUrls(JsonNode schemes, String base) {
        schemes.path("oauth2").path("flows").fields().forEachRemaining(flow -> {
            ObjectNode f = (ObjectNode) flow.getValue();
            for (String key : List.of("authorizationUrl", "tokenUrl", "refreshUrl")) {
                if (f.has(key) && f.get(key).asText().startsWith("/")) {
                    f.put(key, base + f.get(key).asText());
                }
            }
        });
    }

    /** Quarkus marks each operation with the Java method it came from: the build's business, not the API's. */
    private static void stripBuildExtensions(JsonNode node) {
        if (node.isObject()) {
            List<String> drop = new ArrayList<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (field.getKey().startsWith("x-quarkus-")) {
                    drop.add(field.getKey());
                } else {
                    stripBuildExtensions(field.getValue());
                }
            }
            ((ObjectNode) node).remove(drop);
        } else if (node.isArray()) {
            node.forEach(GatewayContract::stripBuildExtensions);
        }
    }

    private static ObjectNode problemResponse(String description) {
        ObjectNode response = JSON.objectNode().put("description", description);
        response.putObject("content").putObject("application/problem+json").putObject("schema")
                .put("$ref", "#/components/schemas/Problem");
        return response;
    }

    private static ObjectNode header(String description, String type) {
        ObjectNode header = JSON.objectNode().put("description", description);
        header.putObject("schema").put("type", type);
        return header;
    }
}
