package org.ziggurat.auth.authorization;

import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.clients.ClientAssertions;
import org.ziggurat.auth.clients.ClientKeys;
import org.ziggurat.auth.clients.ClientMetadata;
import org.ziggurat.auth.clients.RegisteredKeys;
import org.ziggurat.auth.clients.RelyingPartyMetadata;
import org.ziggurat.auth.federation.ProviderHttp;
import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.jboss.logging.Logger;
import java.time.Duration;
import org.ziggurat.auth.oauth.OAuthException;

import java.text.ParseException;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Request objects (OpenID Connect Core §6.1, RFC 9101): the {@code request} parameter, a JWT whose
 * claims are the authorization request's parameters, signed with a key the client registered (its
 * jwks or jwks_uri) by an asymmetric algorithm (the one it registered as
 * {@code request_object_signing_alg}, if it did). Its parameters take precedence over those beside
 * it (§6.3.3); {@code client_id} and {@code response_type}, when it has them, must be the same as
 * beside it. An unsigned one ({@code none}) is refused: nothing would bind it to the client.
 */
@ApplicationScoped
public class RequestObjects {

    private static final Logger LOG = Logger.getLogger(RequestObjects.class);

    private final ClientKeys keys;
    private final String issuer;
    private final ProviderHttp http;

    RequestObjects(ClientKeys keys, AuthConfig config, ProviderHttp http) {
        this.keys = keys;
        this.issuer = config.issuer();
        this.http = http;
    }

    /**
     * A request object by reference (Core §6.2): fetched from {@code request_uri}, which must be one
     * the application registered (request_uris), under the rules of every address someone else chose
     * ({@link ProviderHttp}: public, https, no redirects, 1 MiB at most), then taken as
     * {@link #merged} takes one; the request_uri itself is not carried on. What was fetched is kept
     * five minutes by the whole URI (a new fragment is new content, as §6.2 says), so that nobody
     * makes this server call someone's address once per request; why a fetch failed is logged, never
     * shown (the page would tell a stranger what this server's network answered).
     */
    public Uni<Map<String, String>> byReference(ApplicationRow app, Map<String, String> params) {
        String requestUri = params.get("request_uri");
        if (!RelyingPartyMetadata.of(app).registered(requestUri)) {
            return Uni.createFrom().failure(new RequestObjectRefused("invalid_request_uri: the request_uri is not one the "
                    + "application registered (request_uris)"));
        }
        if (fetched.getIfPresent(requestUri) == null && failedLately.getIfPresent(requestUri) != null) {
            // An address that failed a moment ago is not asked again for every request.
            return Uni.createFrom().failure(new RequestObjectRefused("invalid_request_uri: the request_uri could not be read"));
        }
        return Uni.createFrom().completionStage(() -> fetched.get(requestUri, (uri, executor) -> http.send("GET",
                        RelyingPartyMetadata.withoutFragment(uri), Map.of("Accept", "application/oauth-authz-req+jwt, "
                                + "application/jwt"), null)
                        .map(reply -> {
                            if (reply.status() != 200 || reply.body() == null) {
                                throw new IllegalStateException("it answered " + reply.status());
                            }
                            return reply.body().strip();
                        }).subscribeAsCompletionStage()).copy())
                .onFailure().transform(e -> {
                    failedLately.put(requestUri, Boolean.TRUE);
                    LOG.infof("a request_uri of client %s could not be read: %s", app.clientId(), e.getMessage());
                    return new RequestObjectRefused("invalid_request_uri: the request_uri could not be read");
                })
                .chain(body -> {
                    Map<String, String> byValue = new LinkedHashMap<>(params);
                    byValue.remove("request_uri");
                    byValue.put("request", body);
                    return merged(app, byValue);
                });
    }

    /** Request objects fetched by reference, by their whole URI; a failed fetch is not kept. */
    private final AsyncCache<String, String> fetched = Caffeine.newBuilder().maximumSize(10_000)
            .expireAfterWrite(Duration.ofMinutes(5)).buildAsync();
    /** Request URIs whose fetch failed in the last ten seconds. */
    private final com.github.benmanes.caffeine.cache.Cache<String, Boolean> failedLately = Caffeine.newBuilder()
            .maximumSize(10_000).expireAfterWrite(Duration.ofSeconds(10)).build();

    /** A request object that cannot be taken, and why (the error page's words). */
    public static final class RequestObjectRefused extends RuntimeException {
        RequestObjectRefused(String message) {
            super(message, null, false, false);
        }
    }

    /** The request's parameters with its request object's in their place; fails with {@link RequestObjectRefused}. */
    public Uni<Map<String, String>> merged(ApplicationRow app, Map<String, String> params) {
        String value = params.get("request");
        SignedJWT jwt;
        try {
            JWT parsed = JWTParser.parse(value);
            if (!(parsed instanceof SignedJWT signed)) {
                return refused("an unsigned request object (alg none) is not taken: sign it with a key the application "
                        + "registered");
            }
            jwt = signed;
        } catch (ParseException e) {
            return refused("the request parameter is not a JWT");
        }
        RegisteredKeys registered = RegisteredKeys.of(app);
        String alg = jwt.getHeader().getAlgorithm().getName();
        if (!ClientAssertions.ALGORITHMS.contains(alg)
                || (registered.requestObjectAlg() != null && !registered.requestObjectAlg().equals(alg))) {
            return refused("the request object's algorithm " + alg + " is not one the application may use");
        }
        if (registered.jwks() == null && registered.jwksUri() == null) {
            return refused("the application registered no keys (jwks or jwks_uri) to sign request objects with");
        }
        return keys.forJwt(registered, value).onFailure(OAuthException.class)
                .transform(e -> new RequestObjectRefused("invalid_request_object: " + e.getMessage()))
                .map(set -> {
                    if (!ClientAssertions.verified(jwt, set)) {
                        throw new RequestObjectRefused("invalid_request_object: its signature is not by a key the "
                                + "application registered");
                    }
                    return merge(params, claims(jwt), app.clientId());
                });
    }

    private Map<String, String> merge(Map<String, String> params, JWTClaimsSet claims, String clientId) {
        if (claims.getIssuer() != null && !clientId.equals(claims.getIssuer())) {
            throw new RequestObjectRefused("invalid_request_object: its iss must be the application's client_id");
        }
        if (claims.getAudience() != null && !claims.getAudience().isEmpty() && !claims.getAudience().contains(issuer)) {
            throw new RequestObjectRefused("invalid_request_object: its aud must name this server (" + issuer + ")");
        }
        Instant now = Instant.now();
        if (claims.getExpirationTime() != null && claims.getExpirationTime().toInstant().isBefore(now.minusSeconds(60))) {
            throw new RequestObjectRefused("invalid_request_object: it has expired");
        }
        if (claims.getNotBeforeTime() != null && claims.getNotBeforeTime().toInstant().isAfter(now.plusSeconds(60))) {
            throw new RequestObjectRefused("invalid_request_object: it is not valid yet");
        }
        Map<String, String> merged = new LinkedHashMap<>(params);
        merged.remove("request");
        for (String name : AuthorizationRequest.PARAMETERS) {
            Object claim = claims.getClaim(name);
            if (claim == null || name.equals("request_uri")) {
                continue;
            }
            // A JSON object (the claims parameter, Core §5.5) stays JSON, as the parameter's value would be.
            @SuppressWarnings("unchecked")
            String text = claim instanceof Map<?, ?> object ? com.nimbusds.jose.util.JSONObjectUtils.toJSONString((Map<String, ?>) object)
                    : claim instanceof Collection<?> many ? many.stream().map(String::valueOf).collect(Collectors.joining(" "))
                    : String.valueOf(claim);
            if ((name.equals("client_id") || name.equals("response_type")) && !text.equals(params.get(name))) {
                throw new RequestObjectRefused("invalid_request_object: its " + name + " must be the request's own");
            }
            merged.put(name, text);
        }
        return merged;
    }

    private static JWTClaimsSet claims(SignedJWT jwt) {
        try {
            return jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            throw new RequestObjectRefused("invalid_request_object: its claims are not a JSON object");
        }
    }

    private static <T> Uni<T> refused(String why) {
        return Uni.createFrom().failure(new RequestObjectRefused("invalid_request_object: " + why));
    }
}
