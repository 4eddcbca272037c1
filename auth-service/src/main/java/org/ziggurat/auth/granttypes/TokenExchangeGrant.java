package org.ziggurat.auth.granttypes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.oauth.GrantTypes;
import org.ziggurat.auth.oauth.IssuedTokens;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.auth.tokens.AccessTokenJwts;
import org.ziggurat.auth.tokens.LiveAccessTokens;
import org.ziggurat.auth.tokens.AccessTokenFormat;
import org.ziggurat.auth.tokens.ResourceServers;
import org.ziggurat.auth.tokens.TokenBounds;
import org.ziggurat.auth.tokens.TokenIssuer;
import org.ziggurat.auth.tokens.TokenRequest;
import org.ziggurat.auth.tokens.TokenRow;
import org.ziggurat.auth.tokens.TokenRules;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Token exchange (RFC 8693): a service that was given a person's access token gets one for
 * another resource (or the same, narrower) to call it on the person's behalf. Never wider: the
 * scopes are the subject token's or fewer, the audience is what the request names (registered
 * resources only), the lifetime ends with the subject token's, and the new token belongs to the
 * same authorization (revoking it revokes this one). The {@code act} claim names the service, and
 * the services before it when the subject token was itself exchanged. Only an application that
 * allows exchange ({@code token_exchange}), and only for a token meant for it: one issued to it,
 * or one whose audience is a resource server that names it as its client.
 */
@ApplicationScoped
public class TokenExchangeGrant implements TokenGrant {

    public static final String ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";
    public static final String JWT_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:jwt";
    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final LiveAccessTokens liveTokens;
    private final org.ziggurat.auth.tokens.TokenRepository tokens;
    private final TokenIssuer issuer;
    private final ResourceServers resources;
    private final AccessTokenFormat formats;

    TokenExchangeGrant(LiveAccessTokens liveTokens, TokenIssuer issuer, ResourceServers resources,
            org.ziggurat.auth.tokens.TokenRepository tokens, AccessTokenFormat formats) {
        this.formats = formats;
        this.tokens = tokens;
        this.liveTokens = liveTokens;
        this.issuer = issuer;
        this.resources = resources;
    }

    @Override
    public String grantType() {
        return GrantTypes.TOKEN_EXCHANGE;
    }

    @Override
    public Issuing read(OAuthForm form, String callerAddress) {
        String subjectToken = form.require("subject_token");
        String subjectType = form.require("subject_token_type");
        if (!subjectType.equals(ACCESS_TOKEN_TYPE) && !subjectType.equals(JWT_TOKEN_TYPE)) {
            throw OAuthException.invalidRequest("subject_token_type must be " + ACCESS_TOKEN_TYPE + " (or, for a JWT access "
                    + "token, " + JWT_TOKEN_TYPE + ").");
        }
        String requestedType = form.get("requested_token_type");
        if (requestedType != null && !requestedType.equals(ACCESS_TOKEN_TYPE) && !requestedType.equals(JWT_TOKEN_TYPE)) {
            throw OAuthException.invalidRequest("requested_token_type may only be " + ACCESS_TOKEN_TYPE + " or " + JWT_TOKEN_TYPE + ".");
        }
        if (form.get("actor_token") != null || form.get("actor_token_type") != null) {
            throw OAuthException.invalidRequest("actor_token is not supported: the authenticated client is the actor.");
        }
        Set<String> scopes = Scopes.parse(form.get("scope"));
        List<String> audience = resources.parse(form.get("audience"));
        return (client, request) -> exchange(client, subjectToken, scopes, audience, requestedType, request);
    }

    Uni<IssuedTokens> exchange(ApplicationRow client, String subjectToken, Set<String> requested, List<String> audience,
            String requestedType, TokenRequest request) {
        if (!client.tokenExchange()) {
            return Uni.createFrom().failure(new OAuthException(OAuthError.UNAUTHORIZED_CLIENT,
                    "This application may not exchange tokens (token_exchange is off)."));
        }
        return liveTokens.find(subjectToken).map(subject -> {
            Instant now = Instant.now();
            if (!TokenRules.isBearer(subject, now) || subject.personId() == null) {
                throw OAuthException.invalidGrant("The subject token is not an active access token of a person.");
            }
            if (!meantFor(subject, client)) {
                EVENTS.warnf("event=token_exchange_refused client_id=%s token_id=%d reason=not_meant_for_client",
                        client.clientId(), subject.id());
                throw OAuthException.invalidGrant("The subject token was neither issued to this client nor meant for it.");
            }
            // A subject token bound to a key (DPoP) is exchanged only with a proof of that key, and what is
            // issued is bound to it too (RFC 9449 §7.1, RFC 8693 §2.1): else a stolen bound token turns bearer.
            if (subject.jkt() != null && !subject.jkt().equals(request.jkt())) {
                EVENTS.warnf("event=token_exchange_refused client_id=%s token_id=%d reason=%s", client.clientId(), subject.id(),
                        request.jkt() == null ? "no_proof_of_subject_key" : "proof_of_another_key");
                throw OAuthException.invalidGrant("The subject token is bound to a key (DPoP): exchange it with a proof of "
                        + "that key.");
            }
            if (!subject.scopes().containsAll(Scopes.granted(requested))) {
                throw OAuthException.invalidScope("An exchange may not widen the subject token's scopes.");
            }
            // What only a verified application may hold, no other gets by exchange (nor this one once unverified).
            Scopes.requireFirstPartyOnlyVerified(requested.isEmpty() ? subject.scopes() : requested, client.verified());
            return subject;
        }).chain(subject -> {
            Set<String> named = new LinkedHashSet<>(request.resources());
            named.addAll(audience);
            List<String> target = named.isEmpty() ? subject.audience() : List.copyOf(named);
            // The format is the target resource's, else the application's (AccessTokenFormat).
            boolean jwt = formats.jwt(client, target);
            if (JWT_TOKEN_TYPE.equals(requestedType) && !jwt) {
                return Uni.createFrom().failure(OAuthException.invalidRequest("The access tokens of this application for "
                        + "that resource are opaque: requested_token_type jwt needs access_token_format jwt or a resource "
                        + "that wants JWTs."));
            }
            List<String> scopes = requested.isEmpty() ? subject.scopes() : List.copyOf(requested);
            // It ends with the subject's sign-in (signing out revokes it) and its authorization, and is for
            // no resource that authorization did not name, when it named any (RFC 8707).
            return tokens.inherited(subject.id()).chain(inherited -> {
                if (inherited == null) {
                    return Uni.createFrom().<IssuedTokens>failure(OAuthException.invalidGrant(
                            "The subject token is not an active access token of a person."));
                }
                if (!named.isEmpty() && inherited.grantResources() != null && !inherited.grantResources().isEmpty()
                        && !inherited.grantResources().containsAll(named)) {
                    return Uni.createFrom().<IssuedTokens>failure(new OAuthException(OAuthError.INVALID_TARGET,
                            "The person's authorization does not name that resource."));
                }
                TokenBounds bounds = new TokenBounds(target, null, request.jkt(), false, actor(client, subject),
                        subject.expiresAt(), inherited);
                return issuer.issue(client, subject.personId(), subject.username(), scopes, subject.family(), false,
                        subject.authTime(), null, subject.amr(), bounds);
            })
                    .map(issued -> issued.exchanged(jwt ? JWT_TOKEN_TYPE : ACCESS_TOKEN_TYPE))
                    .invoke(issued -> EVENTS.infof("event=token_exchanged client_id=%s person_id=%d subject_token_id=%d "
                            + "token_id=%d", client.clientId(), subject.personId(), subject.id(), issued.accessTokenId()));
        });
    }

    /** Whether the subject token was issued to this client, or is meant for a resource server that this client is. */
    private boolean meantFor(TokenRow subject, ApplicationRow client) {
        if (subject.applicationId() != null && subject.applicationId() == client.id()) {
            return true;
        }
        for (String resource : resources.stated(subject.audience())) {
            ResourceServers.Server server = resources.byIdentifier(resource);
            if (server != null && client.clientId().equals(server.clientId())) {
                return true;
            }
        }
        return false;
    }

    /** RFC 8693 §4.1: the act claim, this client acting, after whoever acted before. */
    static String actor(ApplicationRow client, TokenRow subject) {
        Map<String, Object> act = new LinkedHashMap<>();
        act.put("sub", client.clientId());
        if (subject.actor() != null) {
            act.put("act", AccessTokenJwts.actor(subject.actor()));
        }
        try {
            return JSON.writeValueAsString(act);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
