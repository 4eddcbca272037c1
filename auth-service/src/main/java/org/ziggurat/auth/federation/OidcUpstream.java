package org.ziggurat.auth.federation;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jwt.JWT;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import com.nimbusds.openid.connect.sdk.claims.UserInfo;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * An OpenID Connect provider, with the Nimbus OAuth 2.0 SDK: its discovery document (read once an
 * hour), the code flow with PKCE (S256), state and nonce, RFC 9207's {@code iss} in the answer
 * checked against the issuer (a provider that announces it must send it: a mix-up with another
 * provider is refused), the ID token validated against the provider's JWKS (its signature by an
 * algorithm the provider announces, never none or a shared secret; issuer, audience, expiry,
 * nonce, and the authorized party: an ID token for several audiences must name this client in azp,
 * and an azp must be this client, OpenID Connect Core §3.1.3.7), then user info, whose subject must
 * be the ID token's. Every call goes through {@link ProviderHttp} (the address rules, no redirect,
 * timeouts), the key set's too ({@link ProviderDiscovery}, {@link ProviderEndpoints}); the SDK's
 * parsing is blocking, so it runs on worker threads. Only the {@code eduperson_assurance} values
 * the operator lets this provider assert are kept.
 */
final class OidcUpstream implements Upstream {

    /** RFC 8176's method references: what a provider's amr may carry into ours. */
    private static final Set<String> METHODS = Set.of("face", "fpt", "geo", "hwk", "iris", "kba", "mca", "mfa", "otp", "pin",
            "pop", "pwd", "rba", "retina", "sc", "sms", "swk", "tel", "user", "vbm", "wia");
    private static final String REFEDS_MFA = "https://refeds.org/profile/mfa";

    private final String id;
    private final FederationSettings.Provider settings;
    private final boolean orcid;
    private final Issuer issuer;
    private final Set<String> assuranceAllowed;
    private final ProviderDiscovery discovery;
    private final ProviderEndpoints endpoints;

    OidcUpstream(String id, FederationSettings.Provider settings, boolean orcid, ProviderHttp http) {
        this.id = id;
        this.settings = settings;
        this.orcid = orcid;
        this.issuer = new Issuer(settings.issuer().orElse(orcid ? "https://orcid.org" : null));
        this.assuranceAllowed = Set.copyOf(settings.assurance().orElse(List.of()));
        this.discovery = new ProviderDiscovery(id, issuer, settings.clientId(), http);
        this.endpoints = new ProviderEndpoints(settings, http);
    }

    /** Without calls (the unit tests read claims only). */
    OidcUpstream(String id, FederationSettings.Provider settings, boolean orcid, Duration timeout) {
        this(id, settings, orcid, (ProviderHttp) null);
    }

    @Override
    public String issuer() {
        return issuer.getValue();
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String displayName() {
        return settings.displayName().orElse(orcid ? "ORCID" : id);
    }

    @Override
    public boolean newAccounts() {
        return settings.newAccounts();
    }

    @Override
    public Uni<String> authorizationUrl(Attempt attempt, String redirectUri) {
        return blocking(() -> {
            OIDCProviderMetadata metadata = discovery.current().metadata();
            String scopes = settings.scopes().orElse(orcid ? "openid" : "openid profile email");
            return new AuthenticationRequest.Builder(ResponseType.CODE, Scope.parse(scopes), new ClientID(settings.clientId()),
                    URI.create(redirectUri))
                    .endpointURI(metadata.getAuthorizationEndpointURI())
                    .state(new State(attempt.state()))
                    .nonce(new Nonce(attempt.nonce()))
                    .codeChallenge(new CodeVerifier(attempt.codeVerifier()), CodeChallengeMethod.S256)
                    .build().toURI().toString();
        });
    }

    @Override
    public Uni<UpstreamIdentity> identity(Answer answer, Attempt attempt, String redirectUri) {
        return blocking(() -> {
            ProviderDiscovery.Discovered provider = discovery.current();
            checkIssuerParameter(answer.iss(), provider.metadata());
            if (answer.error() != null) {
                throw Refused.providerError(answer.error());
            }
            if (answer.code() == null || answer.code().isBlank()) {
                throw new Refused(Reason.NO_CODE, "no code in the provider's answer");
            }
            OIDCTokenResponse tokens = endpoints.tokens(provider.metadata(), answer.code(), attempt, redirectUri);
            JWT idToken = tokens.getOIDCTokens().getIDToken();
            if (idToken == null) {
                throw new Refused(Reason.NO_ID_TOKEN, "no ID token");
            }
            IDTokenClaimsSet claims;
            try {
                claims = provider.validator().validate(idToken, new Nonce(attempt.nonce()));
            } catch (BadJOSEException | JOSEException e) {
                throw new Refused(Reason.ID_TOKEN_INVALID, "ID token refused", e);
            }
            checkAuthorizedParty(claims.getAudience().stream().map(com.nimbusds.oauth2.sdk.id.Audience::getValue).toList(), claims.getStringClaim("azp"),
                    settings.clientId());
            Map<String, Object> all = new java.util.HashMap<>(claims.toJSONObject());
            UserInfo info = endpoints.userInfo(provider.metadata(), tokens.getOIDCTokens().getBearerAccessToken());
            if (info != null) {
                if (!claims.getSubject().equals(info.getSubject())) {
                    throw new Refused(Reason.USER_INFO_SUBJECT, "user info names another subject than the ID token");
                }
                info.toJSONObject().forEach((name, value) -> {
                    // What the ID token says of the sign-in itself stays the ID token's.
                    if (!Set.of("iss", "aud", "exp", "iat", "nonce", "amr", "acr", "auth_time", "azp").contains(name)) {
                        all.put(name, value);
                    }
                });
            }
            return identity(claims.getSubject().getValue(), all);
        });
    }

    /** The identity from the validated claims (ID token, then user info). */
    UpstreamIdentity identity(String subject, Map<String, Object> claims) {
        String orcidId = null;
        if (orcid) {
            orcidId = OrcidIds.of(subject);
            if (orcidId == null) {
                throw new Refused(Reason.ORCID_SUBJECT, "ORCID's subject is not an ORCID iD");
            }
        } else if (settings.orcidClaim().isPresent()) {
            orcidId = OrcidIds.of(text(claims.get(settings.orcidClaim().get())));
        }
        List<String> amr = amr(claims.get("amr"), text(claims.get("acr")));
        String name = text(claims.get("name"));
        if (name == null && (claims.get("given_name") != null || claims.get("family_name") != null)) {
            name = ((text(claims.get("given_name")) == null ? "" : text(claims.get("given_name")) + " ")
                    + (text(claims.get("family_name")) == null ? "" : text(claims.get("family_name")))).strip();
        }
        String email = text(claims.get("email"));
        // Only the values the operator lets this provider assert: the rest is not ours to say again.
        List<String> assurance = strings(claims.get("eduperson_assurance")).stream().filter(assuranceAllowed::contains).toList();
        return new UpstreamIdentity(id, subject, text(claims.get("preferred_username")), name, email,
                email != null && Boolean.TRUE.equals(claims.get("email_verified")), assurance, orcidId, amr, issuer.getValue());
    }

    /**
     * OpenID Connect Core §3.1.3.7, steps 4 and 5: an ID token for more than one audience must name
     * this client as its authorized party, and an azp, when there is one, must be this client.
     */
    static void checkAuthorizedParty(List<String> audience, String azp, String clientId) {
        if (audience.size() > 1 && azp == null) {
            throw new Refused(Reason.AUTHORIZED_PARTY, "an ID token for several audiences without azp");
        }
        if (azp != null && !azp.equals(clientId)) {
            throw new Refused(Reason.AUTHORIZED_PARTY, "the ID token's azp is another client");
        }
    }

    private void checkIssuerParameter(String iss, OIDCProviderMetadata metadata) {
        if (iss != null && !iss.equals(issuer.getValue())) {
            throw new Refused(Reason.ISSUER_MISMATCH, "the answer's iss is another issuer's (mix-up)");
        }
        if (iss == null && metadata.supportsAuthorizationResponseIssuerParam()) {
            throw new Refused(Reason.ISSUER_MISSING, "the provider announces iss in its answers, and this one has none");
        }
    }

    static List<String> amr(Object amr, String acr) {
        Set<String> methods = new LinkedHashSet<>();
        if (amr instanceof List<?> values) {
            for (Object value : values) {
                if (value instanceof String method && METHODS.contains(method)) {
                    methods.add(method);
                }
            }
        }
        if (REFEDS_MFA.equals(acr)) {
            methods.add("mfa");
        }
        return List.copyOf(methods);
    }

    private static String text(Object value) {
        return value instanceof String s && !s.isBlank() ? s.strip() : null;
    }

    private static List<String> strings(Object value) {
        if (value instanceof String s) {
            return s.isBlank() ? List.of() : List.of(s);
        }
        if (value instanceof List<?> list) {
            return list.stream().filter(v -> v instanceof String s && !s.isBlank() && s.length() <= 255 && !s.contains(" "))
                    .map(String.class::cast).distinct().limit(20).toList();
        }
        return List.of();
    }

    private static <T> Uni<T> blocking(Supplier<T> work) {
        return Uni.createFrom().item(work).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
