package org.ziggurat.auth.clients;

import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.ziggurat.directory.client.DirectoryClient;
import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.RedirectUris;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.platform.problem.ProblemException;

import java.util.LinkedHashSet;
import java.util.List;

/** Applications (OAuth clients) of their owners: validation, secrets shown once, deletion revokes all. */
@ApplicationScoped
public class ApplicationService {

    public static final int MAX_REDIRECT_URIS = 10;
    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final ApplicationRepository applications;
    private final TokenCrypto crypto;
    private final AccessorRepository accessors;
    private final DirectoryClient directory;

    ApplicationService(ApplicationRepository applications, TokenCrypto crypto, AccessorRepository accessors, @RestClient DirectoryClient directory) {
        this.applications = applications;
        this.crypto = crypto;
        this.accessors = accessors;
        this.directory = directory;
    }

    public record Created(ApplicationRow application, String secret) {
    }

    /** The fields of a create or full replace, validated. */
    record Fields(String name, List<String> redirectUris, List<String> scopes, Boolean confidential, Boolean passwordGrant) {
    }

    public Uni<Created> create(long owner, JsonNode body) {
        Fields f = fields(body, true);
        boolean confidential = f.confidential() == null || f.confidential();
        String secret = confidential ? crypto.newClientSecret() : null;
        return applications.insert(new ApplicationRepository.NewApplication(owner, f.name(), crypto.newClientId(),
                        secret == null ? null : crypto.hash(secret), confidential, f.redirectUris(), f.scopes(),
                        f.passwordGrant() == null || f.passwordGrant(), false))
                .map(app -> new Created(app, secret))
                .invoke(c -> EVENTS.infof("event=application_created client_id=%s person_id=%d", c.application().clientId(), owner));
    }

    /** PUT replaces every field; PATCH changes the fields it names. The kind of client never changes. */
    public Uni<ApplicationRow> update(long owner, long id, JsonNode body, boolean replace) {
        Fields f = fields(body, replace);
        return owned(id, owner).chain(app -> {
            if (f.confidential() != null && f.confidential() != app.confidential()) {
                throw ProblemException.invalidField("confidential", "cannot change: create a new application instead");
            }
            return applications.update(id, f.name() != null ? f.name() : app.name(),
                    f.redirectUris() != null ? f.redirectUris() : app.redirectUris(),
                    f.scopes() != null ? f.scopes() : app.scopes(),
                    f.passwordGrant() != null ? f.passwordGrant() : app.passwordGrant());
        });
    }

    public Uni<Created> resetSecret(long owner, long id) {
        return owned(id, owner).chain(app -> {
            if (!app.confidential()) {
                throw ProblemException.invalidField("confidential", "a public client has no secret");
            }
            String secret = crypto.newClientSecret();
            return applications.replaceSecret(id, crypto.hash(secret)).map(updated -> new Created(updated, secret));
        }).invoke(c -> EVENTS.infof("event=client_secret_reset client_id=%s person_id=%d", c.application().clientId(), owner));
    }

    public Uni<Void> delete(long owner, long id) {
        return owned(id, owner).call(app -> unlinkOrganizations(app)).chain(app -> applications.delete(id)
                .invoke(() -> EVENTS.infof("event=application_deleted client_id=%s person_id=%d", app.clientId(), owner)))
                .replaceWithVoid();
    }

    /** The directory forgets the application's organization links, so no Organization lists it any more. */
    private Uni<Void> unlinkOrganizations(ApplicationRow app) {
        return accessors.ofApplication(app.id()).chain(all -> {
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (var accessor : all) {
                if (accessor.kind().equals(AccessorRepository.ORGANIZATION)) {
                    chain = chain.call(() -> directory.unlink(accessor.subjectId(), app.clientId())
                            .onFailure(DirectoryClient.NotFound.class).recoverWithNull());
                }
            }
            return chain;
        });
    }

    public Uni<ApplicationRow> owned(long id, long owner) {
        return applications.ownedBy(id, owner)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No such application."));
    }

    static Fields fields(JsonNode body, boolean required) {
        FieldChecks.object(body);
        FieldChecks errors = new FieldChecks();
        String name = errors.line(body.get("name"), "name", 100, required);
        List<String> uris = null;
        JsonNode u = body.get("redirect_uris");
        if (u != null && !u.isNull()) {
            if (!u.isArray() || u.isEmpty() || u.size() > MAX_REDIRECT_URIS) {
                errors.add("redirect_uris", "must be a list of 1 to " + MAX_REDIRECT_URIS + " URIs");
            } else {
                LinkedHashSet<String> set = new LinkedHashSet<>();
                for (int i = 0; i < u.size(); i++) {
                    JsonNode item = u.get(i);
                    String problem = item.isTextual() ? RedirectUris.problem(item.asText()) : "must be a string";
                    if (problem != null) {
                        errors.add("redirect_uris[" + i + "]", problem);
                    } else {
                        set.add(item.asText());
                    }
                }
                uris = List.copyOf(set);
            }
        } else if (required) {
            errors.add("redirect_uris", "is required");
        }
        List<String> scopes = null;
        JsonNode s = body.get("scopes");
        if (s != null && !s.isNull()) {
            if (!s.isTextual()) {
                errors.add("scopes", "must be a space-delimited string");
            } else {
                try {
                    scopes = List.copyOf(Scopes.parse(s.asText()));
                } catch (OAuthException e) {
                    errors.add("scopes", e.getMessage());
                }
            }
        } else if (required) {
            scopes = List.of();
        }
        Boolean confidential = errors.bool(body.get("confidential"), "confidential");
        Boolean passwordGrant = errors.bool(body.get("password_grant"), "password_grant");
        errors.throwIfFailed("The application is not valid.");
        return new Fields(name, uris, scopes, confidential, passwordGrant);
    }
}
