package org.ziggurat.platform.token;

import io.quarkus.security.identity.SecurityIdentity;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.ziggurat.platform.problem.ProblemException;

import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Who calls, as the verified platform token states it: a person (through an OAuth client, with
 * scopes), a service, or nobody. Resources ask it instead of reading claims themselves.
 */
public final class Caller {

    private static final Caller ANONYMOUS = new Caller(null, null, Set.of(), null, null, null);

    private final Long userId;
    private final String username;
    private final Set<String> scopes;
    private final String clientId;
    private final String service;
    private final String acr;

    private Caller(Long userId, String username, Set<String> scopes, String clientId, String service, String acr) {
        this.userId = userId;
        this.username = username;
        this.scopes = scopes;
        this.clientId = clientId;
        this.service = service;
        this.acr = acr;
    }

    public static Caller anonymous() {
        return ANONYMOUS;
    }

    public static Caller of(SecurityIdentity identity) {
        if (identity == null || identity.isAnonymous() || !(identity.getPrincipal() instanceof JsonWebToken token)) {
            return ANONYMOUS;
        }
        String service = token.getClaim(PlatformClaims.SERVICE);
        if (service != null) {
            return new Caller(null, null, Set.of(), null, service, null);
        }
        String scope = token.getClaim(PlatformClaims.SCOPE);
        Set<String> scopes = scope == null || scope.isBlank() ? Set.of()
                : Arrays.stream(scope.trim().split("\\s+")).collect(Collectors.toUnmodifiableSet());
        return new Caller(Long.parseLong(token.getSubject()), token.getName(), scopes,
                token.getClaim(PlatformClaims.CLIENT_ID), null, token.getClaim(PlatformClaims.ACR));
    }

    public boolean isAnonymous() {
        return userId == null && service == null;
    }

    public boolean isUser() {
        return userId != null;
    }

    public boolean isService() {
        return service != null;
    }

    public Optional<Long> userId() {
        return Optional.ofNullable(userId);
    }

    public Optional<String> username() {
        return Optional.ofNullable(username);
    }

    public Set<String> scopes() {
        return scopes;
    }

    public boolean hasScope(String scope) {
        return scopes.contains(scope);
    }

    public Optional<String> clientId() {
        return Optional.ofNullable(clientId);
    }

    public Optional<String> service() {
        return Optional.ofNullable(service);
    }

    /** Whether the person signed in with a second factor (acr multi-factor); false when not known. */
    public boolean signedInWithSecondFactor() {
        return PlatformClaims.MULTI_FACTOR.equals(acr);
    }

    /** The calling person's id; 401 when nobody (or only a service) calls. */
    public long requireUser() {
        if (userId == null) {
            throw ProblemException.unauthorized("This request needs an authenticated user.");
        }
        return userId;
    }

    /** The calling person's id, provided the token carries the scope; 401 or 403 otherwise. */
    public long requireUserWithScope(String scope) {
        long id = requireUser();
        if (!scopes.contains(scope)) {
            throw ProblemException.forbidden("The access token lacks the '" + scope + "' scope.");
        }
        return id;
    }

    /** For internal endpoints: only another service may call. */
    public String requireService() {
        if (service == null) {
            throw isAnonymous() ? ProblemException.unauthorized("This endpoint is for the platform's services.")
                    : ProblemException.forbidden("This endpoint is for the platform's services.");
        }
        return service;
    }

    @Override
    public String toString() {
        return service != null ? "service " + service : userId != null ? "user " + userId : "anonymous";
    }
}
