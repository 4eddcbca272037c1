package org.ziggurat.rs;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jose4j.jwk.HttpsJwks;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.keys.resolvers.HttpsJwksVerificationKeyResolver;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.Inflater;

/**
 * A JWT access token's Token Status List entry (draft-ietf-oauth-status-list), honoured as a
 * resource server would: the token's {@code status.status_list} names a list and an index; the
 * list is fetched from its uri, its signature checked against the issuer's JWKS (typ
 * statuslist+jwt, sub = the uri), kept for its ttl, and a token whose bit is not 0 (VALID) is
 * refused. Opaque tokens were introspected, which already says whether they are active.
 */
@ApplicationScoped
public class TokenStatusCheck implements SecurityIdentityAugmentor {

    record StatusList(byte[] bits, int bitsPerEntry, long keepUntilMillis) {
    }

    private final HttpClient http = HttpClient.newHttpClient();
    private final Map<String, StatusList> lists = new ConcurrentHashMap<>();
    private final HttpsJwks jwks;

    TokenStatusCheck(@ConfigProperty(name = "quarkus.oidc.auth-server-url") String issuer) {
        this.jwks = new HttpsJwks(issuer + "/oauth/jwks");
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (!(identity.getPrincipal() instanceof JsonWebToken token) || identity.getAttribute("introspection") != null) {
            return Uni.createFrom().item(identity);
        }
        Object status = token.getClaim("status");
        if (!(status instanceof jakarta.json.JsonObject claim) || !claim.containsKey("status_list")) {
            return Uni.createFrom().item(identity);
        }
        jakarta.json.JsonObject reference = claim.getJsonObject("status_list");
        String uri = reference.getString("uri");
        int index = reference.getJsonNumber("idx").intValueExact();
        return context.runBlocking(() -> {
            int value = statusOf(uri, index);
            if (value != 0) {
                throw new AuthenticationFailedException("the token's status is " + value + " (not VALID)");
            }
            return identity;
        });
    }

    int statusOf(String uri, int index) {
        StatusList list = lists.get(uri);
        if (list == null || list.keepUntilMillis() < System.currentTimeMillis()) {
            list = fetch(uri);
            lists.put(uri, list);
        }
        int perByte = 8 / list.bitsPerEntry();
        int at = index / perByte;
        if (at >= list.bits().length) {
            throw new AuthenticationFailedException("the token's index is outside its status list");
        }
        int shift = (index % perByte) * list.bitsPerEntry();
        return (list.bits()[at] >> shift) & ((1 << list.bitsPerEntry()) - 1);
    }

    private StatusList fetch(String uri) {
        try {
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(uri))
                    .header("Accept", "application/statuslist+jwt").build(), HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 200) {
                throw new AuthenticationFailedException("the status list answered " + answer.statusCode());
            }
            JwtConsumer consumer = new JwtConsumerBuilder().setVerificationKeyResolver(new HttpsJwksVerificationKeyResolver(jwks))
                    .setExpectedType(true, "statuslist+jwt").setExpectedSubject(uri).setRequireIssuedAt()
                    .setSkipDefaultAudienceValidation().build();
            JwtClaims claims = consumer.processToClaims(answer.body());
            @SuppressWarnings("unchecked")
            Map<String, Object> statusList = (Map<String, Object>) claims.getClaimValue("status_list");
            int bits = ((Number) statusList.get("bits")).intValue();
            byte[] compressed = Base64.getUrlDecoder().decode((String) statusList.get("lst"));
            long ttlSeconds = claims.hasClaim("ttl") ? ((Number) claims.getClaimValue("ttl")).longValue() : 0;
            return new StatusList(inflate(compressed), bits, System.currentTimeMillis() + ttlSeconds * 1000);
        } catch (AuthenticationFailedException e) {
            throw e;
        } catch (Exception e) {
            throw new AuthenticationFailedException("the status list cannot be read: " + e, e);
        }
    }

    private static byte[] inflate(byte[] compressed) throws java.util.zip.DataFormatException {
        Inflater inflater = new Inflater();
        inflater.setInput(compressed);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        while (!inflater.finished()) {
            int n = inflater.inflate(buffer);
            if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                throw new java.util.zip.DataFormatException("truncated");
            }
            out.write(buffer, 0, n);
        }
        inflater.end();
        return out.toByteArray();
    }
}
