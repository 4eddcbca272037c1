package org.ziggurat.auth.clients;

import com.nimbusds.jose.jwk.JWKSet;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.oauth.OAuthException;

import java.text.ParseException;

/**
 * The public keys a client registered, to check what it signs (its client assertions, its request
 * objects): its {@code jwks}, or what its {@code jwks_uri} publishes (read again once when a JWT
 * names a key the cached set lacks: a rotation).
 */
@ApplicationScoped
public class ClientKeys {

    private final ClientKeySets keySets;

    ClientKeys(ClientKeySets keySets) {
        this.keySets = keySets;
    }

    /** The keys to check {@code jwt} with; {@code invalid_client} when they cannot be had. */
    public Uni<JWKSet> forJwt(RegisteredKeys registered, String jwt) {
        if (registered.jwks() != null) {
            return Uni.createFrom().item(() -> parsed(registered.jwks()));
        }
        if (registered.jwksUri() == null) {
            return Uni.createFrom().failure(OAuthException.invalidClient("The client registered no keys (jwks or jwks_uri)."));
        }
        return keySets.fetch(registered.jwksUri(), false).map(ClientKeys::parsed)
                .chain(cached -> ClientAssertions.hasKeyFor(jwt, cached) ? Uni.createFrom().item(cached)
                        : keySets.fetch(registered.jwksUri(), true).map(ClientKeys::parsed))
                .onFailure(e -> !(e instanceof OAuthException)).transform(e -> OAuthException.invalidClient(
                        "The client's jwks_uri could not be read: " + e.getMessage()));
    }

    private static JWKSet parsed(String json) {
        try {
            return JWKSet.parse(json);
        } catch (ParseException e) {
            throw OAuthException.invalidClient("The client's key set is not a JWK set.");
        }
    }
}
