package org.ziggurat.auth.federation;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.oauth2.sdk.GeneralException;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import org.ziggurat.platform.problem.DependencyUnavailable;

import java.net.MalformedURLException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One provider's discovery document and the validator of its ID tokens (its JWKS, fetched as every
 * other call: the address rules, no redirect), read once an hour; when the provider does not answer,
 * the last good document serves until it does. The ID token's signature algorithms are those the
 * provider announces, never none or a shared secret. Blocking: called on worker threads.
 */
final class ProviderDiscovery {

    private static final Duration METADATA_LIFETIME = Duration.ofHours(1);

    record Discovered(OIDCProviderMetadata metadata, IDTokenValidator validator, Instant at) {
    }

    private final String id;
    private final Issuer issuer;
    private final String clientId;
    private final ProviderHttp http;
    private final AtomicReference<Discovered> discovered = new AtomicReference<>();

    ProviderDiscovery(String id, Issuer issuer, String clientId, ProviderHttp http) {
        this.id = id;
        this.issuer = issuer;
        this.clientId = clientId;
        this.http = http;
    }

    /** The discovery document and the ID token's validator, fetched again after an hour. */
    Discovered current() {
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
        IDTokenValidator validator = new IDTokenValidator(issuer, new ClientID(clientId),
                new JWSVerificationKeySelector<>(algorithms, keys), null);
        validator.setMaxClockSkew(60);
        Discovered fresh = new Discovered(metadata, validator, Instant.now());
        discovered.set(fresh);
        return fresh;
    }
}
