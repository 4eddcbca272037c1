package org.ziggurat.auth.oauth;

import io.netty.handler.codec.http.QueryStringDecoder;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An {@code application/x-www-form-urlencoded} body of an OAuth request. Parsed here rather than by
 * JAX-RS so that any malformed body, wrong content type or repeated parameter (RFC 6749 §3.2)
 * is an {@code invalid_request} in the OAuth error shape.
 */
public final class OAuthForm {

    public static final int MAX_BODY = 16 * 1024;

    private final Map<String, List<String>> parameters;

    private OAuthForm(Map<String, List<String>> parameters) {
        this.parameters = parameters;
    }

    public static OAuthForm parse(String contentType, String body) {
        if (contentType == null || !contentType.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
            throw OAuthException.invalidRequest("The request body must be application/x-www-form-urlencoded.");
        }
        if (body != null && body.length() > MAX_BODY) {
            throw OAuthException.invalidRequest("The request body is too large.");
        }
        try {
            return new OAuthForm(new QueryStringDecoder(body == null ? "" : body, false).parameters());
        } catch (IllegalArgumentException e) {
            throw OAuthException.invalidRequest("The request body is not valid form encoding.");
        }
    }

    /**
     * The parameters that may be repeated: RFC 8707's {@code resource} and RFC 8693's
     * {@code audience}. Their values are URIs, so they are read joined by spaces, as the pages
     * carry them.
     */
    public static final Set<String> REPEATABLE = Set.of("resource", "audience");

    /** The single value of a parameter, or null; {@code invalid_request} when it is repeated (but see {@link #REPEATABLE}). */
    public String get(String name) {
        List<String> values = parameters.get(name);
        if (values == null || values.isEmpty()) {
            return null;
        }
        if (values.size() > 1 && REPEATABLE.contains(name)) {
            for (String value : values) {
                if (value.isEmpty() || value.contains(" ")) {
                    throw OAuthException.invalidRequest("The parameter '" + name + "' has an empty value or a space.");
                }
            }
            return String.join(" ", values);
        }
        if (values.size() > 1) {
            throw OAuthException.invalidRequest("The parameter '" + name + "' is repeated.");
        }
        String value = values.get(0);
        return value.isEmpty() ? null : value;
    }

    /** Whether the form carries the parameter at all, empty or not (a page's field left empty is sent empty). */
    public boolean sent(String name) {
        return parameters.containsKey(name);
    }

    /** The named parameters that are present, in the order named; {@code invalid_request} when one is repeated. */
    public Map<String, String> only(List<String> names) {
        Map<String, String> present = new LinkedHashMap<>();
        for (String name : names) {
            String value = get(name);
            if (value != null) {
                present.put(name, value);
            }
        }
        return present;
    }

    public String require(String name) {
        String value = get(name);
        if (value == null) {
            throw OAuthException.invalidRequest("The parameter '" + name + "' is required.");
        }
        return value;
    }
}
