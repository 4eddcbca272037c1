package org.ziggurat.auth.tokens;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.oauth.AuthenticationMethods;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.Scopes;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** What a token is, as RFC 7662 introspection and the spec's token info tell it. */
@ApplicationScoped
public class TokenDescriptions {

    private final LiveAccessTokens liveTokens;
    private final AuthConfig config;

    private final ResearchPeople researchPeople;
    private final ResourceServers resources;
    private final AccessTokenJwts jwts;

    TokenDescriptions(LiveAccessTokens liveTokens, AuthConfig config, ResearchPeople researchPeople,
            ResourceServers resources, AccessTokenJwts jwts) {
        this.resources = resources;
        this.jwts = jwts;
        this.researchPeople = researchPeople;
        this.liveTokens = liveTokens;
        this.config = config;
    }

    /**
     * RFC 7662's answer to an authenticated confidential client: the token, when it is live and
     * the client may learn about it (its own, or any with the introspection right); else inactive.
     */
    public Uni<Map<String, Object>> introspection(ApplicationRow client, String token) {
        return introspection(token, client.introspection(),
                row -> TokenRules.activeFor(row, Instant.now(), client.id(), client.introspection()));
    }

    /**
     * The answer to a registered resource server's credential (RFC 7662 §4): the token, when it is
     * a live access token whose audience names that resource; else inactive, the platform API's
     * tokens too.
     */
    public Uni<Map<String, Object>> introspection(ResourceServers.Credential server, String token) {
        return introspection(token, false, row -> TokenRules.activeForResource(row, Instant.now(),
                row == null ? null : resources.stated(row.audience()), server.identifier()));
    }

    /** {@code forGateway}: the caller has the introspection right (the gateway), which alone is told the feed's name of the token. */
    private Uni<Map<String, Object>> introspection(String token, boolean forGateway, java.util.function.Predicate<TokenRow> active) {
        return liveTokens.find(token).chain(row -> {
            Map<String, Object> answer = active.test(row) ? describe(row) : Map.of("active", false);
            if (forGateway && Boolean.TRUE.equals(answer.get("active")) && row.isAccess()) {
                // The name the revocation feed gives this token (AccessTokenChanges), for the gateway alone.
                answer.put(REVOCATION_REFERENCE, liveTokens.revocationReference(token));
            }
            // A research infrastructure's service decides from the research claims the token's scopes carry.
            if (!Boolean.TRUE.equals(answer.get("active")) || row.personId() == null) {
                return Uni.createFrom().item(answer);
            }
            return researchPeople.claims(row.personId(), row.scopes(), row.amr(), row.id(), null).map(research -> {
                research.forEach(answer::putIfAbsent);
                return answer;
            });
        });
    }

    private Map<String, Object> describe(TokenRow row) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("active", true);
        answer.put("scope", Scopes.display(row.scopes()));
        answer.put("client_id", row.clientId());
        if (row.personId() != null) {
            answer.put("username", row.username());
            answer.put("sub", Long.toString(row.personId()));
            // How the person signed in, for a resource that needs more (RFC 9470 §6.2): it
            // answers insufficient_user_authentication and the client asks for it (acr_values).
            if (row.amr() != null) {
                answer.put("acr", AuthenticationMethods.acr(row.amr()));
                answer.put("amr", row.amr());
            }
            if (row.authTime() != null) {
                answer.put("auth_time", row.authTime().getEpochSecond());
            }
        } else {
            answer.put("sub", row.clientId());
        }
        // RFC 9449 §6.2: a token bound to a DPoP key says so, with the key's thumbprint.
        answer.put("token_type", row.isAccess() && row.jkt() != null ? "DPoP" : TokenRules.tokenType(row));
        if (row.jkt() != null) {
            answer.put("cnf", Map.of("jkt", row.jkt()));
        }
        if (row.isAccess()) {
            // RFC 7662 allows a string or an array: always the array, one schema for every answer.
            answer.put("aud", resources.stated(row.audience()));
        }
        if (row.actor() != null) {
            answer.put("act", AccessTokenJwts.actor(row.actor()));
        }
        answer.put("exp", row.expiresAt().getEpochSecond());
        answer.put("iat", row.createdAt().getEpochSecond());
        // When the authorization this token belongs to ends, however often it is refreshed.
        answer.put("authorization_exp", row.authorizationExpiresAt().getEpochSecond());
        answer.put("iss", config.issuer());
        return answer;
    }

    /** The introspection member that names the token as the revocation feed does. */
    public static final String REVOCATION_REFERENCE = "revocation_ref";

    /** RFC 9701 §5: the media type of a signed introspection answer. */
    public static final String SIGNED_INTROSPECTION = "application/token-introspection+jwt";

    /**
     * RFC 9701: the introspection answer as a JWT signed with the provider's RS256 key, for the
     * asking client or resource server ({@code aud}, its client_id); its {@code token_introspection} claim is the answer.
     */
    public Uni<String> signedIntrospection(String clientId, Map<String, Object> answer) {
        com.nimbusds.jwt.JWTClaimsSet claims = new com.nimbusds.jwt.JWTClaimsSet.Builder()
                .issuer(org.ziggurat.auth.Issuer.of(config)).audience(clientId)
                .issueTime(new java.util.Date()).claim("token_introspection", answer).build();
        return jwts.sign(new com.nimbusds.jose.JOSEObjectType("token-introspection+jwt"), "RS256", claims);
    }

    /** The spec's token info of a live bearer token: its owner, scopes, lifetime left and application. */
    public Uni<Map<String, Object>> info(String bearer) {
        return liveTokens.bearer(bearer).map(row -> {
            if (row == null) {
                throw new OAuthException(OAuthError.TOKEN_INVALID, "The access token is invalid, expired or revoked.");
            }
            Map<String, Object> info = new LinkedHashMap<>();
            info.put("resource_owner_id", row.personId());
            info.put("scopes", Scopes.list(row.scopes()));
            info.put("expires_in_seconds", Math.max(0, row.expiresAt().getEpochSecond() - Instant.now().getEpochSecond()));
            Map<String, Object> application = new LinkedHashMap<>();
            application.put("uid", row.clientId());
            info.put("application", application);
            info.put("created_at", row.createdAt().getEpochSecond());
            return info;
        });
    }
}
