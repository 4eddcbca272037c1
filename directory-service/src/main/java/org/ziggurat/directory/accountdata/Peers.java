package org.ziggurat.directory.accountdata;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.core.http.HttpClient;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.problem.DependencyUnavailable;
import org.ziggurat.platform.token.PlatformClaims;
import org.ziggurat.platform.token.PlatformTokenSigner;

import java.util.List;
import java.util.Optional;

/**
 * Calls to the services that hold a person's data (auth, vocab, events), on their internal API,
 * with this service's own platform token. Anything but the expected answer is a
 * {@link DependencyUnavailable}: an export is whole or not given; an erasure is tried again.
 */
@ApplicationScoped
public class Peers {

    /** The peers, by the name erasures are recorded under. */
    public static final List<String> NAMES = List.of("auth-service", "vocab-service", "events-service");

    private final PeerSettings settings;
    private final PlatformTokenSigner signer;
    private final HttpClient client;

    Peers(PeerSettings settings, PlatformTokenSigner signer, Vertx vertx) {
        this.settings = settings;
        this.signer = signer;
        this.client = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout((int) settings.timeout().toMillis()));
    }

    /** The peer's part of the person's export. */
    public Uni<JsonObject> export(String peer, long personId) {
        return call(peer, HttpMethod.GET, "/internal/people/" + personId + "/export", null, 200).map(Buffer::toJsonObject);
    }

    /** Tells the peer the account was deleted; done when it answers 204. */
    public Uni<Void> erase(String peer, long personId, String username) {
        JsonObject body = new JsonObject().put("person_id", personId).put("username", username);
        return call(peer, HttpMethod.POST, "/internal/erasures", body, 204).replaceWithVoid();
    }

    /** Tells the peer (auth-service) to end the person's sign-ins after a new password; done when it answers 204. */
    public Uni<Void> signOut(String peer, long personId) {
        return call(peer, HttpMethod.POST, "/internal/sign-outs", new JsonObject().put("person_id", personId), 204)
                .replaceWithVoid();
    }

    /** Tells the peer (events-service) of a change for the audit stream; done when it answers 204 (again: a no-op). */
    public Uni<Void> audit(String peer, String event) {
        return call(peer, HttpMethod.POST, "/internal/audit-events", new JsonObject(event), 204).replaceWithVoid();
    }

    private Uni<Buffer> call(String peer, HttpMethod method, String path, JsonObject body, int expected) {
        Optional<String> base = switch (peer) {
            case "auth-service" -> settings.authUrl();
            case "vocab-service" -> settings.vocabUrl();
            case "events-service" -> settings.eventsUrl();
            default -> Optional.empty();
        };
        if (base.isEmpty()) {
            return Uni.createFrom().failure(new DependencyUnavailable(peer + " is not configured (ziggurat.directory.peers)", null));
        }
        RequestOptions options = new RequestOptions().setMethod(method).setAbsoluteURI(base.get() + path)
                .putHeader(PlatformClaims.HEADER, signer.cachedServiceToken()).putHeader("Accept", "application/json")
                .setIdleTimeout(settings.timeout().toMillis());
        return client.request(options)
                .chain(request -> body == null ? request.send()
                        : request.putHeader("Content-Type", "application/json").send(Buffer.buffer(body.encode())))
                .chain(response -> response.body().map(content -> {
                    if (response.statusCode() != expected) {
                        throw new DependencyUnavailable(peer + " answered " + response.statusCode() + " to " + method + " "
                                + path, null);
                    }
                    return content;
                }))
                .ifNoItem().after(settings.timeout()).failWith(() -> new DependencyUnavailable(peer + " did not answer in time",
                        null))
                .onFailure(e -> !(e instanceof DependencyUnavailable))
                .transform(e -> new DependencyUnavailable(peer + " cannot be reached: " + e.getMessage(), e));
    }
}
