package org.ziggurat.auth.clients;

import com.fasterxml.jackson.databind.JsonNode;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.RedirectUris;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.platform.input.FieldChecks;

import java.util.LinkedHashSet;
import java.util.List;

/**
 * An application's fields as a create, a replace or a change gives them, read and checked at the
 * HTTP edge (a registration's metadata becomes these too); null where left out.
 */
public record ApplicationFields(String name, List<String> redirectUris, List<String> scopes, Boolean confidential,
        Boolean passwordGrant, List<String> postLogoutRedirectUris, String idTokenAlg, Boolean requirePushedRequests,
        Integer refreshTokenAbsoluteLifetime, String accessTokenFormat, Boolean dpopBoundAccessTokens,
        Boolean tokenExchange) {

    /** The formats of access tokens: opaque (introspected), or RFC 9068 JWTs. */
    public static final List<String> ACCESS_TOKEN_FORMATS = List.of("opaque", "jwt");

    /** How many redirect URIs (and post-logout ones) an application may have. */
    public static final int MAX_REDIRECT_URIS = 10;
    /** The algorithms of ID tokens (the signing key series). */
    public static final List<String> ID_TOKEN_ALGORITHMS = List.of("RS256", "ES256");

    /** These fields over the application's (or the defaults, for a new one) where they are left out. */
    ApplicationRepository.OpenIdSettings openId(ApplicationRow app) {
        ApplicationRepository.OpenIdSettings before = app == null ? ApplicationRepository.OpenIdSettings.DEFAULTS
                : new ApplicationRepository.OpenIdSettings(app.postLogoutRedirectUris(), app.idTokenAlg(),
                        app.requirePushedRequests(), app.accessTokenFormat(), app.dpopBoundAccessTokens(), app.tokenExchange());
        return new ApplicationRepository.OpenIdSettings(
                postLogoutRedirectUris != null ? postLogoutRedirectUris : before.postLogoutRedirectUris(),
                idTokenAlg != null ? idTokenAlg : before.idTokenAlg(),
                requirePushedRequests != null ? requirePushedRequests : before.requirePushedRequests(),
                accessTokenFormat != null ? accessTokenFormat : before.accessTokenFormat(),
                dpopBoundAccessTokens != null ? dpopBoundAccessTokens : before.dpopBound(),
                tokenExchange != null ? tokenExchange : before.tokenExchange());
    }

    /** The fields of a create ({@code required}: or full replace), validated. */
    public static ApplicationFields parse(JsonNode body, boolean required) {
        FieldChecks.object(body);
        FieldChecks errors = new FieldChecks();
        String name = errors.line(body.get("name"), "name", 100, required);
        List<String> uris = uris(errors, body, "redirect_uris", 1, required, true);
        List<String> logoutUris = uris(errors, body, "post_logout_redirect_uris", 0, false, false);
        if (logoutUris != null && logoutUris.stream().anyMatch(RedirectUris::isOutOfBand)) {
            errors.add("post_logout_redirect_uris", "must be URIs of the application, not the out-of-band one");
        }
        List<String> scopes = null;
        JsonNode s = body.get("scopes");
        if (s != null && !s.isNull()) {
            if (!s.isTextual()) {
                errors.add("scopes", "must be a space-delimited string");
            } else {
                try {
                    scopes = List.copyOf(Scopes.parse(s.asText()));
                } catch (OAuthException e) {
                    errors.add("scopes", e.getMessage());
                }
            }
        } else if (required) {
            scopes = List.of();
        }
        Boolean confidential = errors.bool(body.get("confidential"), "confidential");
        Boolean passwordGrant = errors.bool(body.get("password_grant"), "password_grant");
        String idTokenAlg = oneOf(errors, body, "id_token_signed_response_alg", ID_TOKEN_ALGORITHMS);
        Boolean requirePushed = errors.bool(body.get("require_pushed_authorization_requests"),
                "require_pushed_authorization_requests");
        Integer authorizationLifetime = null;
        JsonNode lifetime = body.get("refresh_token_absolute_lifetime");
        if (lifetime != null && !lifetime.isNull()) {
            if (!lifetime.isIntegralNumber() || !lifetime.canConvertToInt()) {
                errors.add("refresh_token_absolute_lifetime", "must be a whole number of seconds");
            } else {
                authorizationLifetime = lifetime.intValue();
            }
        }
        String format = oneOf(errors, body, "access_token_format", ACCESS_TOKEN_FORMATS);
        Boolean dpopBound = errors.bool(body.get("dpop_bound_access_tokens"), "dpop_bound_access_tokens");
        Boolean tokenExchange = errors.bool(body.get("token_exchange"), "token_exchange");
        errors.throwIfFailed("The application is not valid.");
        return new ApplicationFields(name, uris, scopes, confidential, passwordGrant, logoutUris, idTokenAlg, requirePushed,
                authorizationLifetime, format, dpopBound, tokenExchange);
    }


    /** A field that is one of {@code allowed}; null when left out (or refused, with its error added). */
    private static String oneOf(FieldChecks errors, JsonNode body, String field, List<String> allowed) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual() || !allowed.contains(value.asText())) {
            errors.add(field, "must be one of " + String.join(", ", allowed));
            return null;
        }
        return value.asText();
    }

    /** A list of 'min' to MAX_REDIRECT_URIS URIs as RedirectUris takes them; null when left out. */
    private static List<String> uris(FieldChecks errors, JsonNode body, String field, int min, boolean required,
            boolean nativeApps) {
        JsonNode u = body.get(field);
        if (u == null || u.isNull()) {
            if (required) {
                errors.add(field, "is required");
            }
            return null;
        }
        if (!u.isArray() || u.size() < min || u.size() > MAX_REDIRECT_URIS) {
            errors.add(field, "must be a list of " + min + " to " + MAX_REDIRECT_URIS + " URIs");
            return null;
        }
        LinkedHashSet<String> set = new LinkedHashSet<>();
        for (int i = 0; i < u.size(); i++) {
            JsonNode item = u.get(i);
            String problem = item.isTextual() ? RedirectUris.problem(item.asText(), nativeApps) : "must be a string";
            if (problem != null) {
                errors.add(field + "[" + i + "]", problem);
            } else {
                set.add(item.asText());
            }
        }
        return List.copyOf(set);
    }
}
