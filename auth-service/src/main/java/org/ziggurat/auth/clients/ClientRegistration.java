package org.ziggurat.auth.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.platform.problem.ProblemException;

import java.util.List;

/**
 * Dynamic client registration (RFC 7591) and its management (RFC 7592): a tool registers itself
 * as an application of the person whose token it presents, with the same validation as
 * {@code POST /applications}, and gets a registration access token to read, change and delete
 * that registration, and nothing else.
 */
@ApplicationScoped
public class ClientRegistration {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");
    /** What a client sends back in a PUT that is not metadata to change (RFC 7592 §2.2). */
    private static final List<String> ISSUED = List.of("client_id", "client_secret", "client_id_issued_at",
            "client_secret_expires_at", "registration_access_token", "registration_client_uri");

    private final ApplicationService applications;
    private final ApplicationRepository repository;
    private final TokenCrypto crypto;

    ClientRegistration(ApplicationService applications, ApplicationRepository repository, TokenCrypto crypto) {
        this.applications = applications;
        this.repository = repository;
        this.crypto = crypto;
    }

    /** A new registration: values in clear, once. */
    public record Registered(ApplicationRow app, String secret, String registrationToken) {
    }

    /** {@code byOperator}: the registering token is an operator's own, or the initial access token. */
    public Uni<Registered> register(long owner, boolean byOperator, JsonNode metadata) {
        ClientMetadata.Parsed parsed = ClientMetadata.parse(metadata);
        String token = crypto.newRegistrationToken();
        // Deferred: the application's validation throws as it reads the fields.
        return Uni.createFrom().deferred(() -> applications.create(owner, ApplicationFields.parse(parsed.application(), true),
                        new ApplicationRepository.Registration(crypto.hash(token), parsed.kept().toString()), byOperator))
                .onFailure(ProblemException.class).transform(e -> ClientMetadata.refusal((ProblemException) e))
                .map(created -> new Registered(created.application(), created.secret(), token))
                .invoke(r -> EVENTS.infof("event=client_registered client_id=%s person_id=%d", r.app().clientId(), owner));
    }

    /** The registered client that this registration access token manages; null for any other token or client. */
    public Uni<ApplicationRow> managedBy(String clientId, String registrationToken) {
        if (registrationToken == null || !ClientCredentials.plausibleClientId(clientId)) {
            return Uni.createFrom().nullItem();
        }
        return repository.byClientIdUncached(clientId).map(app -> app != null && app.ownerId() != null
                && crypto.matches(registrationToken, app.registrationTokenHash()) ? app : null);
    }

    /** RFC 7592 §2.2: the metadata replaced, as registration validates it; the kind of client never changes. */
    public Uni<ApplicationRow> update(ApplicationRow app, JsonNode metadata) {
        if (metadata == null || !metadata.isObject()) {
            throw new OAuthException(OAuthError.INVALID_CLIENT_METADATA, "The client metadata must be a JSON object.");
        }
        if (!app.clientId().equals(metadata.path("client_id").asText(null))) {
            throw new OAuthException(OAuthError.INVALID_CLIENT_METADATA, "client_id must be the registered client's.");
        }
        if (metadata.hasNonNull("client_secret") && !crypto.matches(metadata.get("client_secret").asText(), app.clientSecretHash())) {
            throw new OAuthException(OAuthError.INVALID_CLIENT_METADATA, "client_secret is not the client's.");
        }
        ObjectNode changed = ((ObjectNode) metadata).deepCopy();
        ISSUED.forEach(changed::remove);
        ClientMetadata.Parsed parsed = ClientMetadata.parse(changed);
        if (RegisteredKeys.of(app).authenticates() != RegisteredKeys.authenticatesWithKeys(parsed.kept().toString())) {
            // A secret is issued only at registration; keys are only checked for private_key_jwt.
            throw new OAuthException(OAuthError.INVALID_CLIENT_METADATA, "token_endpoint_auth_method cannot change between "
                    + "a secret and private_key_jwt: register a new client.");
        }
        return Uni.createFrom().deferred(() -> applications.update(app.ownerId(), app.id(), ApplicationFields.parse(parsed.application(), true), true,
                        parsed.kept().toString()))
                .onFailure(ProblemException.class).transform(e -> ClientMetadata.refusal((ProblemException) e));
    }

    public Uni<Void> delete(ApplicationRow app) {
        return applications.delete(app.ownerId(), app.id())
                .invoke(() -> EVENTS.infof("event=client_unregistered client_id=%s", app.clientId()));
    }
}
