package org.ziggurat.auth.tokens;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jwt.JWTClaimsSet;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.Issuer;
import org.ziggurat.auth.keys.SigningKeys;
import org.ziggurat.auth.oauth.AuthenticationMethods;
import org.ziggurat.auth.oauth.Scopes;

import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * JWT access tokens (RFC 9068), for the applications that ask for them: signed with the provider's
 * rotated keys ({@code ziggurat.auth.access-token-alg}, ES256 by default), so that a resource
 * server checks them against the JWKS alone. They are stored by hash as opaque ones are, so that
 * introspection, revocation and the gateway treat them alike.
 */
@ApplicationScoped
public class AccessTokenJwts {

    /** RFC 9068 §2.1: the header's typ. */
    public static final JOSEObjectType TYPE = new JOSEObjectType("at+jwt");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final IdTokens idTokens;
    private final AuthConfig config;
    private final ResourceServers resources;

    AccessTokenJwts(IdTokens idTokens, AuthConfig config, ResourceServers resources) {
        this.idTokens = idTokens;
        this.config = config;
        this.resources = resources;
        if (!SigningKeys.ALGORITHMS.contains(config.accessTokenAlg())) {
            throw new IllegalStateException("ziggurat.auth.access-token-alg must be one of " + SigningKeys.ALGORITHMS);
        }
    }

    /** What an access token says of itself. {@code personId} null: the client acting for itself. */
    public record Claims(String clientId, Long personId, List<String> scopes, List<String> audience, Instant issuedAt,
            Instant expiresAt, Instant authTime, List<String> amr, String jkt, String actor) {
    }

    /**
     * The signed token, with its entry in the Token Status List ({@code status}, null for none):
     * where a resource server that only verifies signatures learns that it was revoked.
     */
    public Uni<String> sign(Claims claims, StatusIndex status) {
        // Every JWT access token has its status list entry: one without could never be revoked for those who only read the list.
        java.util.Objects.requireNonNull(status, "a JWT access token's status list entry");
        JWTClaimsSet set = new JWTClaimsSet.Builder(claimsSet(claims)).claim("status", status.claim(Issuer.of(config))).build();
        return sign(TYPE, config.accessTokenAlg(), set);
    }

    /** A JWT of this type signed with the key of {@code alg} that signs now (RFC 9701 introspection answers too). */
    public Uni<String> sign(JOSEObjectType type, String alg, JWTClaimsSet claims) {
        return idTokens.sign(type, alg, claims);
    }

    JWTClaimsSet claimsSet(Claims c) {
        List<String> audience = resources.stated(c.audience());
        JWTClaimsSet.Builder builder = new JWTClaimsSet.Builder()
                .issuer(Issuer.of(config))
                .subject(c.personId() == null ? c.clientId() : Long.toString(c.personId()))
                .audience(audience)
                .claim("client_id", c.clientId())
                .claim("scope", Scopes.display(c.scopes()))
                .jwtID(UUID.randomUUID().toString())
                .issueTime(Date.from(c.issuedAt()))
                .expirationTime(Date.from(c.expiresAt()));
        if (c.personId() != null && c.authTime() != null) {
            builder.claim("auth_time", c.authTime().getEpochSecond());
        }
        if (c.personId() != null && c.amr() != null) {
            builder.claim("acr", AuthenticationMethods.acr(c.amr())).claim("amr", c.amr());
        }
        if (c.jkt() != null) {
            builder.claim("cnf", Map.of("jkt", c.jkt()));
        }
        if (c.actor() != null) {
            builder.claim("act", actor(c.actor()));
        }
        return builder.build();
    }

    /** The stored act claim (JSON) as a claim value. */
    public static Map<?, ?> actor(String json) {
        try {
            return JSON.readValue(json, Map.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored act claim cannot be read", e);
        }
    }
}
