package org.ziggurat.auth.tokens;

import com.fasterxml.jackson.databind.JsonNode;
import org.ziggurat.auth.clients.ClientCredentials;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.platform.input.FieldChecks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * An operator's body for a resource server, checked field by field (422 naming every field that
 * is wrong): a new one's, or a change of one ({@code before}: what a field left out keeps; null
 * clears the lifetime and the exchanging client).
 */
final class ResourceServerFields {

    static final int MIN_LIFETIME = 60;

    private ResourceServerFields() {
    }

    static ResourceServerRepository.Fields parse(JsonNode body, ResourceServerRepository.Fields before, Duration platformLifetime) {
        FieldChecks.object(body);
        FieldChecks errors = new FieldChecks();
        boolean creating = before == null;
        String identifier = errors.string(body.get("identifier"), "identifier", 2000, creating);
        if (identifier != null) {
            String problem = ResourceServers.problem(identifier);
            if (problem != null) {
                errors.add("identifier", problem);
            } else if (!creating && !identifier.equals(before.identifier())) {
                errors.add("identifier", "cannot be changed: tokens name it; register another resource server");
            }
        }
        String name = errors.line(body.get("name"), "name", 100, creating);
        List<String> scopes = scopes(body.get("scopes"), errors, creating);
        String format = errors.oneOf(body.get("access_token_format"), "access_token_format", AccessTokenFormat.FORMATS,
                creating ? AccessTokenFormat.JWT : before.format());
        Integer lifetime = has(body, "access_token_lifetime") ? lifetime(body.get("access_token_lifetime"), errors,
                platformLifetime) : creating ? null : before.lifetime();
        String exchanger = creating ? null : before.exchangeClientId();
        if (has(body, "exchange_client_id")) {
            exchanger = errors.string(body.get("exchange_client_id"), "exchange_client_id", 64, false);
            if (exchanger != null && !ClientCredentials.plausibleClientId(exchanger)) {
                errors.add("exchange_client_id", "must be an application's client_id");
            }
        }
        errors.throwIfFailed("The resource server is not valid.");
        return new ResourceServerRepository.Fields(creating ? identifier : before.identifier(), name != null ? name : before.name(),
                scopes != null ? scopes : before.scopes(), format, lifetime, exchanger);
    }

    private static boolean has(JsonNode body, String field) {
        return body.has(field);
    }

    /** Platform scopes, at least one, each once, in the platform's order; null when absent (or wrong). */
    private static List<String> scopes(JsonNode node, FieldChecks errors, boolean required) {
        if (node == null || node.isNull()) {
            if (required) {
                errors.add("scopes", FieldChecks.REQUIRED + ": the platform scopes it understands");
            }
            return null;
        }
        Set<String> named = new LinkedHashSet<>();
        if (node.isArray()) {
            node.forEach(scope -> named.add(scope.isTextual() ? scope.asText() : ""));
        }
        if (named.isEmpty() || !Scopes.KNOWN.containsAll(named)) {
            errors.add("scopes", "must be a list of the platform's scopes (" + String.join(" ", Scopes.KNOWN) + ")");
            return null;
        }
        List<String> ordered = new ArrayList<>(Scopes.KNOWN);
        ordered.retainAll(named);
        return ordered;
    }

    /** Seconds, at least a minute and shorter than the platform's access-token lifetime; null clears it. */
    private static Integer lifetime(JsonNode node, FieldChecks errors, Duration platformLifetime) {
        if (node == null || node.isNull()) {
            return null;
        }
        long below = platformLifetime.toSeconds();
        // canConvertToLong first: asLong() wraps a number past 2^63 (2^64 + 120 would be 120).
        if (!node.isIntegralNumber() || !node.canConvertToLong() || node.asLong() < MIN_LIFETIME || node.asLong() >= below) {
            errors.add("access_token_lifetime", "must be whole seconds from " + MIN_LIFETIME + " to " + (below - 1)
                    + " (shorter than the platform's access-token lifetime)");
            return null;
        }
        return (int) node.asLong();
    }
}
