package org.ziggurat.auth.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.ziggurat.auth.oauth.RedirectUris;

/**
 * A client's public keys as it registered them (RFC 7591 §2: {@code jwks} or {@code jwks_uri},
 * never both), whether it authenticates with them (private_key_jwt) and with which algorithm, and
 * the algorithm of its request objects.
 */
public record RegisteredKeys(String jwks, String jwksUri, String signingAlg, boolean authenticates, String requestObjectAlg) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static RegisteredKeys parse(JsonNode metadata, String method) {
        JsonNode jwks = metadata.get("jwks");
        String jwksUri = ClientMetadata.text(metadata, "jwks_uri", null);
        String alg = ClientMetadata.text(metadata, "token_endpoint_auth_signing_alg", null);
        if (jwks != null && !jwks.isNull() && jwksUri != null) {
            throw ClientMetadata.invalid("jwks and jwks_uri: one or the other, not both (RFC 7591 section 2).");
        }
        String set = null;
        if (jwks != null && !jwks.isNull()) {
            String problem = jwks.isObject() ? ClientAssertions.keySetProblem(jwks.toString()) : "must be a JWK set (an object)";
            if (problem != null || jwks.toString().length() > 16384) {
                throw ClientMetadata.invalid("jwks " + (problem != null ? problem : "must be at most 16384 characters") + ".");
            }
            set = jwks.toString();
        }
        if (jwksUri != null && (jwksUri.length() > 2000 || !(jwksUri.startsWith("https://") || jwksUri.startsWith("http://"))
                || RedirectUris.problem(jwksUri) != null)) {
            throw ClientMetadata.invalid("jwks_uri must be an absolute https URI of at most 2000 characters.");
        }
        if (alg != null && !ClientAssertions.knownAlgorithm(alg)) {
            throw ClientMetadata.invalid("token_endpoint_auth_signing_alg must be one of " + String.join(", ", ClientAssertions.ALGORITHMS) + ".");
        }
        String requestAlg = ClientMetadata.text(metadata, "request_object_signing_alg", null);
        if (requestAlg != null && !ClientAssertions.knownAlgorithm(requestAlg)) {
            // Never none: a request object is taken only signed with the client's own key.
            throw ClientMetadata.invalid("request_object_signing_alg must be one of " + String.join(", ", ClientAssertions.ALGORITHMS) + ".");
        }
        boolean authenticates = ClientMetadata.PRIVATE_KEY_JWT.equals(method);
        if (authenticates && set == null && jwksUri == null) {
            throw ClientMetadata.invalid("private_key_jwt needs the client's public keys: jwks or jwks_uri.");
        }
        return new RegisteredKeys(set, jwksUri, alg, authenticates, requestAlg);
    }

    /** The keys an application registered (none for one made through /applications). */
    public static RegisteredKeys of(ApplicationRow app) {
        return ofKept(ClientMetadata.keptOf(app));
    }

    /** Whether a registration's kept metadata (JSON) says the client authenticates with its keys. */
    public static boolean authenticatesWithKeys(String keptMetadata) {
        try {
            return keptMetadata != null && ofKept(JSON.readTree(keptMetadata)).authenticates();
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static RegisteredKeys ofKept(JsonNode kept) {
        return new RegisteredKeys(kept.hasNonNull("jwks") ? kept.get("jwks").toString() : null, kept.path("jwks_uri").asText(null),
                kept.path("token_endpoint_auth_signing_alg").asText(null),
                ClientMetadata.PRIVATE_KEY_JWT.equals(kept.path("token_endpoint_auth_method").asText(null)),
                kept.path("request_object_signing_alg").asText(null));
    }

}
