package org.ziggurat.auth.clients;

import com.nimbusds.jose.jwk.JWKSet;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.oauth.OAuthException;

import java.text.ParseException;
import java.time.Instant;

/**
 * A client that registered private_key_jwt proves itself with an assertion ({@link ClientAssertions})
 * signed by a key of its registered {@code jwks}, or of its {@code jwks_uri} (fetched again once when
 * the assertion names a key the cached set lacks: a rotation), good once on every replica.
 */
@ApplicationScoped
public class ClientAssertionVerifier {

    private static final Logger LOG = Logger.getLogger("org.ziggurat.auth.security");

    private final ClientKeySets keySets;
    private final ClientAssertionRepository used;
    private final String issuer;

    ClientAssertionVerifier(ClientKeySets keySets, ClientAssertionRepository used, AuthConfig config) {
        this.keySets = keySets;
        this.used = used;
        this.issuer = config.issuer();
    }

    /** The application once its assertion is checked and used; {@code invalid_client} otherwise. */
    public Uni<ApplicationRow> verify(ApplicationRow app, String assertion) {
        if (assertion == null) {
            LOG.infof("event=client_authentication_failed client_id=%s reason=method", app.clientId());
            return Uni.createFrom().failure(OAuthException.invalidClient("This client authenticates with a signed JWT "
                    + "(private_key_jwt): client_assertion_type and client_assertion."));
        }
        ClientMetadata.Keys registered = ClientMetadata.keysOf(app);
        return keys(registered, assertion)
                .map(keys -> ClientAssertions.check(assertion, app.clientId(), keys, registered.signingAlg(), issuer, Instant.now()))
                .chain(checked -> used.firstUse(app.clientId(), checked.jti(), checked.expiresAt()))
                .map(first -> {
                    if (!first) {
                        throw OAuthException.invalidClient("This client assertion was used before: each is good once.");
                    }
                    return app;
                })
                .onFailure(OAuthException.class).invoke(e -> LOG.infof("event=client_authentication_failed client_id=%s "
                        + "reason=assertion detail=\"%s\"", app.clientId(), e.getMessage()));
    }

    private Uni<JWKSet> keys(ClientMetadata.Keys registered, String assertion) {
        if (registered.jwks() != null) {
            return Uni.createFrom().item(() -> parsed(registered.jwks()));
        }
        return keySets.fetch(registered.jwksUri(), false).map(ClientAssertionVerifier::parsed)
                .chain(cached -> ClientAssertions.hasKeyFor(assertion, cached) ? Uni.createFrom().item(cached)
                        : keySets.fetch(registered.jwksUri(), true).map(ClientAssertionVerifier::parsed))
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
