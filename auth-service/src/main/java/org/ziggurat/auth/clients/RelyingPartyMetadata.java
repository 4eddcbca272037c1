package org.ziggurat.auth.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.ziggurat.auth.oauth.RedirectUris;

import java.util.ArrayList;
import java.util.List;

/**
 * What a relying party registered for OpenID Connect beyond the application's own fields
 * (OpenID Connect Dynamic Client Registration §2): the algorithm its userinfo answers are signed
 * with ({@code userinfo_signed_response_alg}; null: plain JSON), and the addresses its request
 * objects may be fetched from ({@code request_uris}, Core §6.2), without fragments.
 */
public record RelyingPartyMetadata(String userinfoAlg, List<String> requestUris) {

    static final int MOST_REQUEST_URIS = 5;

    static RelyingPartyMetadata parse(JsonNode metadata) {
        String alg = ClientMetadata.text(metadata, "userinfo_signed_response_alg", null);
        if (alg != null && !ApplicationFields.ID_TOKEN_ALGORITHMS.contains(alg)) {
            throw ClientMetadata.invalid("userinfo_signed_response_alg must be one of "
                    + String.join(", ", ApplicationFields.ID_TOKEN_ALGORITHMS) + ".");
        }
        List<String> uris = new ArrayList<>();
        JsonNode given = metadata.get("request_uris");
        if (given != null && !given.isNull()) {
            if (!given.isArray() || given.size() > MOST_REQUEST_URIS) {
                throw ClientMetadata.invalid("request_uris must be an array of at most " + MOST_REQUEST_URIS + " addresses.");
            }
            for (JsonNode each : given) {
                String uri = each.isTextual() ? withoutFragment(each.asText()) : null;
                // Fetched under the rules of every address someone else chose (https, public) when used.
                if (uri == null || uri.length() > 2000 || !(uri.startsWith("https://") || uri.startsWith("http://"))
                        || RedirectUris.problem(uri) != null) {
                    throw ClientMetadata.invalid("request_uris must hold absolute https URIs of at most 2000 characters.");
                }
                uris.add(uri);
            }
        }
        return new RelyingPartyMetadata(alg, List.copyOf(uris));
    }

    void keep(ObjectNode kept) {
        if (userinfoAlg != null) {
            kept.put("userinfo_signed_response_alg", userinfoAlg);
        }
        if (!requestUris.isEmpty()) {
            ArrayNode array = kept.putArray("request_uris");
            requestUris.forEach(array::add);
        }
    }

    /** What the application registered (nothing, for one made through /applications). */
    public static RelyingPartyMetadata of(ApplicationRow app) {
        if (app.registrationMetadata() == null) {
            return new RelyingPartyMetadata(null, List.of());
        }
        JsonNode kept = ClientMetadata.keptOf(app);
        List<String> uris = new ArrayList<>();
        kept.path("request_uris").forEach(uri -> uris.add(uri.asText()));
        return new RelyingPartyMetadata(kept.path("userinfo_signed_response_alg").asText(null), List.copyOf(uris));
    }

    /** Whether a request object may be fetched from {@code requestUri}: one of those registered (its fragment aside). */
    public boolean registered(String requestUri) {
        return requestUri != null && requestUris.contains(withoutFragment(requestUri));
    }

    /** Core §6.2: the fragment only tells versions of the content apart; the address is the rest. */
    public static String withoutFragment(String uri) {
        int hash = uri.indexOf('#');
        return hash < 0 ? uri : uri.substring(0, hash);
    }
}
