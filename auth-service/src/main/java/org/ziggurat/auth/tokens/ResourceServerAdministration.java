package org.ziggurat.auth.tokens;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.jboss.logging.Logger;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.clients.Operators;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The operators' API of resource servers ({@link Operators}: their own token and the admin scope):
 * list them, register one, change, remove one, give one a new credential. The deployment's
 * configured ones are listed (by their name in the configuration) but changed there only. A
 * credential's secret is shown once, when it is made, and kept as a keyed hash. Every replica
 * sees a change within milliseconds ({@link ResourceServerRegistry}); this one before it answers.
 */
@ApplicationScoped
public class ResourceServerAdministration {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");
    private static final Pattern REGISTERED_ID = Pattern.compile("[1-9][0-9]{0,17}");
    /** A resource server's client_id: never one of the 20 letters and digits an application gets. */
    static final String CLIENT_ID_PREFIX = "rs_";

    /** A resource server as the API shows it; its secret only in the answer that made it. */
    @RegisterForReflection
    @Schema(name = "ResourceServer", description = "A resource server tokens may be meant for (RFC 8707).")
    public record View(String id, String identifier, String name, List<String> scopes,
            @Schema(nullable = true, enumeration = {"jwt", "opaque"}, description = "null: the client's choice (a configured "
                    + "one without a format).") String accessTokenFormat,
            @Schema(nullable = true, description = "Seconds; null: the platform's access-token lifetime.") Integer accessTokenLifetime,
            @Schema(nullable = true) String exchangeClientId,
            @Schema(nullable = true, description = "Its credential's client_id; null for a configured one.") String clientId,
            @Schema(description = "Only in the answer that made it.") @JsonInclude(JsonInclude.Include.NON_NULL) String clientSecret,
            @Schema(enumeration = {"configuration", "api"}) String source) {
    }

    private final Callers callers;
    private final Operators operators;
    private final AuthConfig config;
    private final ResourceServers resources;
    private final ResourceServerRepository repository;
    private final ResourceServerRegistry registry;
    private final TokenCrypto crypto;

    ResourceServerAdministration(Callers callers, Operators operators, AuthConfig config, ResourceServers resources,
            ResourceServerRepository repository, ResourceServerRegistry registry, TokenCrypto crypto) {
        this.callers = callers;
        this.operators = operators;
        this.config = config;
        this.resources = resources;
        this.repository = repository;
        this.registry = registry;
        this.crypto = crypto;
    }

    private Uni<Long> operator() {
        return callers.current().map(caller -> operators.require(caller, "manage resource servers"));
    }

    public Uni<List<View>> list() {
        return operator().chain(operator -> repository.all()).map(rows -> {
            List<View> all = new ArrayList<>(configuredViews());
            rows.forEach(row -> all.add(view(row, null)));
            return all;
        });
    }

    public Uni<View> get(String id) {
        return operator().chain(operator -> find(id));
    }

    /** The resource server of an id, configured or registered, for anyone (its metadata); 404 for none. */
    public Uni<View> find(String id) {
        for (View configured : configuredViews()) {
            if (configured.id().equals(id)) {
                return Uni.createFrom().item(configured);
            }
        }
        return repository.byId(registeredId(id)).map(row -> view(required(row), null));
    }

    /** 201's view, with the new credential's secret (shown this once); 409 for an identifier taken. */
    public Uni<View> create(JsonNode body) {
        return operator().chain(operator -> {
            ResourceServerRepository.Fields fields = ResourceServerFields.parse(body, null, config.accessTokenLifetime());
            if (resources.configured(fields.identifier())) {
                throw ProblemException.conflict("The platform's API or the deployment's configuration has this identifier.");
            }
            String clientId = CLIENT_ID_PREFIX + crypto.newClientId();
            String secret = crypto.newClientSecret();
            return repository.create(fields, clientId, crypto.hash(secret), operator)
                    .onFailure(e -> e instanceof PgException pg && "23505".equals(pg.getSqlState()))
                    .transform(e -> ProblemException.conflict("A resource server has this identifier already."))
                    .call(registry::reload).map(row -> {
                        EVENTS.infof("event=resource_server_added resource_server_id=%d client_id=%s operator_id=%d",
                                row.id(), row.clientId(), operator);
                        return view(row, secret);
                    });
        });
    }

    /** Its settings changed (the identifier stays); 409 for a configured one, 404 for none. */
    public Uni<View> change(String id, JsonNode body) {
        return registered(id, (operator, before) -> repository.update(before.id(),
                ResourceServerFields.parse(body, fields(before), config.accessTokenLifetime()), operator), "changed", false);
    }

    /** A new credential: the old secret stops working. */
    public Uni<View> newSecret(String id) {
        String secret = crypto.newClientSecret();
        return registered(id, (operator, before) -> repository.replaceSecret(before.id(), crypto.hash(secret), operator),
                "secret_rotated", false).map(view -> new View(view.id(), view.identifier(), view.name(), view.scopes(),
                view.accessTokenFormat(), view.accessTokenLifetime(), view.exchangeClientId(), view.clientId(), secret, view.source()));
    }

    /** Removed with its credential; the tokens issued for it live on until they expire. */
    public Uni<Void> delete(String id) {
        return registered(id, (operator, before) -> repository.delete(before.id(), operator).map(done -> done ? before : null),
                "removed", true).replaceWithVoid();
    }

    /** A change of a registered one by an operator: the row after it, or null when there was none. */
    private interface Change {
        Uni<ResourceServerRepository.Stored> apply(long operator, ResourceServerRepository.Stored before);
    }

    private Uni<View> registered(String id, Change change, String event, boolean gone) {
        return operator().chain(operator -> {
            if (configuredViews().stream().anyMatch(view -> view.id().equals(id))) {
                throw ProblemException.conflict("The deployment's configuration sets this resource server; change it there.");
            }
            return repository.byId(registeredId(id)).map(ResourceServerAdministration::required)
                    .chain(before -> change.apply(operator, before)).map(after -> required(after))
                    .call(registry::reload).map(row -> {
                        EVENTS.infof("event=resource_server_%s resource_server_id=%d operator_id=%d", event, row.id(), operator);
                        return view(row, null);
                    });
        });
    }

    private static long registeredId(String id) {
        if (id == null || !REGISTERED_ID.matcher(id).matches()) {
            throw ProblemException.notFound("No such resource server.");
        }
        return Long.parseLong(id);
    }

    private static ResourceServerRepository.Stored required(ResourceServerRepository.Stored row) {
        if (row == null) {
            throw ProblemException.notFound("No such resource server.");
        }
        return row;
    }

    private static ResourceServerRepository.Fields fields(ResourceServerRepository.Stored row) {
        return new ResourceServerRepository.Fields(row.identifier(), row.name(), row.scopes(), row.format(), row.lifetime(),
                row.exchangeClientId());
    }

    private List<View> configuredViews() {
        List<View> views = new ArrayList<>();
        config.resourceServers().forEach((name, server) -> views.add(new View(name, server.identifier(), name,
                orderedScopes(server.scopes()), server.accessTokenFormat().orElse(null),
                server.accessTokenLifetime().map(d -> (int) d.toSeconds()).orElse(null), server.clientId().orElse(null), null,
                null, "configuration")));
        views.sort(java.util.Comparator.comparing(View::id));
        return views;
    }

    private static List<String> orderedScopes(List<String> scopes) {
        List<String> ordered = new ArrayList<>(org.ziggurat.auth.oauth.Scopes.KNOWN);
        ordered.retainAll(scopes);
        return ordered;
    }

    private static View view(ResourceServerRepository.Stored row, String secret) {
        return new View(Long.toString(row.id()), row.identifier(), row.name(), row.scopes(), row.format(), row.lifetime(),
                row.exchangeClientId(), row.clientId(), secret, "api");
    }
}
