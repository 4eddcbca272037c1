package org.ziggurat.auth.pages;

import jakarta.ws.rs.core.UriInfo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The pages' query parameters: each at most once (a repeated one is refused), empty ones left out. */
final class QueryParameters {

    /** The named parameters, or the name of one that is repeated. */
    record Read(Map<String, String> values, String repeated) {
    }

    private QueryParameters() {
    }

    static Read read(UriInfo uri, List<String> names) {
        Map<String, String> params = new LinkedHashMap<>();
        for (String name : names) {
            List<String> values = uri.getQueryParameters().getOrDefault(name, List.of());
            if (values.size() > 1 && org.ziggurat.auth.oauth.OAuthForm.REPEATABLE.contains(name)
                    && values.stream().noneMatch(value -> value.isEmpty() || value.contains(" "))) {
                // RFC 8707: resource may be repeated; carried joined by spaces (URIs have none).
                params.put(name, String.join(" ", values));
                continue;
            }
            if (values.size() > 1) {
                return new Read(null, name);
            }
            values.stream().filter(value -> !value.isEmpty()).forEach(value -> params.put(name, value));
        }
        return new Read(params, null);
    }
}
