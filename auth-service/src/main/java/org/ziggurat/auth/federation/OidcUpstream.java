package org.ziggurat.auth.federation;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWT;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.GeneralException;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.auth.ClientAuthentication;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.ClientSecretPost;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.token.BearerAccessToken;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.UserInfoRequest;
import com.nimbusds.openid.connect.sdk.UserInfoResponse;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import com.nimbusds.openid.connect.sdk.claims.UserInfo;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import org.ziggurat.platform.problem.DependencyUnavailable;

import java.net.MalformedURLException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
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
 * timeouts), the key set's too; the SDK's parsing is blocking, so it runs on worker threads. Only
 * the {@code eduperson_assurance} values the operator lets this provider assert are kept.
 */
final class OidcUpstream implements Upstream {

    /** RFC 8176's method references: what a provider's amr may carry into ours. */
    private static final Set<String> METHODS = Set.of("face", "fpt", "geo", "hwk", "iris", "kba", "mca", "mfa", "otp", "pin",
            "pop", "pwd", "rba", "retina", "sc", "sms", "swk", "tel", "user", "vbm", "wia");
    private static final String REFEDS_MFA = "https://refeds.org/profile/mfa";
    private static final Duration METADATA_LIFETIME = Duration.ofHours(1);

    private record Discovered(OIDCProviderMetadata metadata, IDTokenValidator validator, Instant at) {
    }

    private final String id;
    private final FederationSettings.Provider settings;
    private final boolean orcid;
    private final Issuer issuer;
    private final ProviderHttp http;
    private final Set<String> assuranceAllowed;
    private final AtomicReference<Discovered> discovered = new AtomicReference<>();

    OidcUpstream(String id, FederationSettings.Provider settings, boolean orcid, ProviderHttp http) {
        this.id = id;
        this.settings = settings;
        this.orcid = orcid;
        this.issuer = new Issuer(settings.issuer().orElse(orcid ? "https://orcid.org" : null));
        this.http = http;
        this.assuranceAllowed = Set.copyOf(settings.assurance().orElse(List.of()));
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
            OIDCProviderMetadata metadata = discovered().metadata();
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
            Discovered provider = discovered();
            checkIssuerParameter(answer.iss(), provider.metadata());
            if (answer.error() != null) {
                throw Refused.providerError(answer.error());
            }
            if (answer.code() == null || answer.code().isBlank()) {
                throw new Refused(Reason.NO_CODE, "no code in the provider's answer");
            }
            OIDCTokenResponse tokens = tokens(provider.metadata(), answer.code(), attempt, redirectUri);
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
            UserInfo info = userInfo(provider.metadata(), tokens.getOIDCTokens().getBearerAccessToken());
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

    private OIDCTokenResponse tokens(OIDCProviderMetadata metadata, String code, Attempt attempt, String redirectUri) {
        ClientID client = new ClientID(settings.clientId());
        AuthorizationCodeGrant grant = new AuthorizationCodeGrant(new AuthorizationCode(code), URI.create(redirectUri),
                new CodeVerifier(attempt.codeVerifier()));
        ClientAuthentication authentication = settings.clientSecret().map(secret -> "post".equals(settings.clientAuth())
                ? (ClientAuthentication) new ClientSecretPost(client, new Secret(secret))
                : new ClientSecretBasic(client, new Secret(secret))).orElse(null);
        TokenRequest request = authentication == null ? new TokenRequest(metadata.getTokenEndpointURI(), client, grant)
                : new TokenRequest(metadata.getTokenEndpointURI(), authentication, grant);
        HTTPResponse response = send(request.toHTTPRequest());
        TokenResponse parsed;
        try {
            parsed = OIDCTokenResponseParser.parse(response);
        } catch (ParseException e) {
            throw unavailableOrRefused(response, Reason.TOKEN_ANSWER_MALFORMED, "the token endpoint's answer is not one");
        }
        if (!parsed.indicatesSuccess()) {
            if (response.getStatusCode() >= 500) {
                throw new DependencyUnavailable("the provider's token endpoint answered " + response.getStatusCode(), null);
            }
            throw new Refused(Reason.CODE_REFUSED, "the token endpoint refused the code");
        }
        return (OIDCTokenResponse) parsed.toSuccessResponse();
    }

    private UserInfo userInfo(OIDCProviderMetadata metadata, BearerAccessToken accessToken) {
        if (metadata.getUserInfoEndpointURI() == null || accessToken == null) {
            return null;
        }
        HTTPResponse response = send(new UserInfoRequest(metadata.getUserInfoEndpointURI(), accessToken).toHTTPRequest());
        try {
            UserInfoResponse parsed = UserInfoResponse.parse(response);
            if (!parsed.indicatesSuccess()) {
                throw unavailableOrRefused(response, Reason.USER_INFO_REFUSED, "user info refused the access token");
            }
            UserInfo info = parsed.toSuccessResponse().getUserInfo();
            if (info == null) {
                throw new Refused(Reason.USER_INFO_MALFORMED, "user info answered a JWT, which this client does not ask for");
            }
            return info;
        } catch (ParseException e) {
            throw unavailableOrRefused(response, Reason.USER_INFO_MALFORMED, "user info's answer is not one");
        }
    }

    private static RuntimeException unavailableOrRefused(HTTPResponse response, Reason reason, String detail) {
        return response.getStatusCode() >= 500
                ? new DependencyUnavailable("the provider answered " + response.getStatusCode(), null)
                : new Refused(reason, detail);
    }

    /** The SDK's request sent by the address rules, its answer back as the SDK's. */
    private HTTPResponse send(HTTPRequest request) {
        Map<String, String> headers = new LinkedHashMap<>();
        request.getHeaderMap().forEach((name, values) -> headers.put(name, String.join(", ", values)));
        ProviderHttp.Reply reply = http.sendBlocking(request.getMethod().name(), request.getURL().toString(), headers,
                request.getBody());
        HTTPResponse response = new HTTPResponse(reply.status());
        if (reply.contentType() != null) {
            response.setHeader("Content-Type", reply.contentType());
        }
        if (reply.wwwAuthenticate() != null) {
            response.setHeader("WWW-Authenticate", reply.wwwAuthenticate());
        }
        response.setBody(reply.body());
        return response;
    }

    /** The discovery document and the ID token's validator, fetched again after an hour. */
    private Discovered discovered() {
        Discovered current = discovered.get();
        if (current != null && current.at().plus(METADATA_LIFETIME).isAfter(Instant.now())) {
            return current;
        }
        OIDCProviderMetadata metadata;
        try {
            ProviderHttp.Reply reply = http.sendBlocking("GET", OIDCProviderMetadata.resolveURL(issuer).toString(),
                    Map.of("Accept", "application/json"), null);
            if (reply.status() != 200) {
                throw new GeneralException("the discovery document answered " + reply.status());
            }
            metadata = OIDCProviderMetadata.parse(reply.body());
            if (!issuer.equals(metadata.getIssuer())) {
                throw new GeneralException("the discovery document names another issuer");
            }
        } catch (GeneralException | RuntimeException e) {
            if (current != null) {
                return current; // the last good one, until the provider answers again
            }
            throw e instanceof DependencyUnavailable unavailable ? unavailable
                    : new DependencyUnavailable("the discovery document of " + issuer + " cannot be had", e);
        }
        Set<JWSAlgorithm> algorithms = new LinkedHashSet<>();
        for (JWSAlgorithm alg : metadata.getIDTokenJWSAlgs() == null ? List.of(JWSAlgorithm.RS256) : metadata.getIDTokenJWSAlgs()) {
            // Never none, never a shared secret (the client's own secret is not a key the provider signs with here).
            if (JWSAlgorithm.Family.SIGNATURE.contains(alg)) {
                algorithms.add(alg);
            }
        }
        JWKSource<SecurityContext> keys;
        try {
            // Fetched as every other call: the address rules, no redirect (the SDK's default retriever follows them).
            keys = JWKSourceBuilder.create(metadata.getJWKSetURI().toURL(), http.keys()).build();
        } catch (MalformedURLException | RuntimeException e) {
            throw new DependencyUnavailable("the provider " + id + " publishes no usable jwks_uri", e);
        }
        IDTokenValidator validator = new IDTokenValidator(issuer, new ClientID(settings.clientId()),
                new JWSVerificationKeySelector<>(algorithms, keys), null);
        validator.setMaxClockSkew(60);
        Discovered fresh = new Discovered(metadata, validator, Instant.now());
        discovered.set(fresh);
        return fresh;
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
