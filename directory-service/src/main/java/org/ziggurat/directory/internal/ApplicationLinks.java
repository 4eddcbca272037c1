package org.ziggurat.directory.internal;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.organizations.OrganizationRepository;
import org.ziggurat.directory.organizations.OrganizationRow;
import org.ziggurat.platform.input.EdgeInput;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

import java.util.List;
import java.util.regex.Pattern;

/**
 * OAuth applications attached to organizations, with the user permissions each organization's
 * admin gave (auth-service asks on their behalf): an attachment names an organization that
 * exists, and is replaced whole when given again.
 */
@ApplicationScoped
public class ApplicationLinks {

    /** An organization an application is attached to, and the permissions given there. */
    public record Linked(OrganizationRow organization, JsonObject permissions) {
    }

    private static final Pattern CLIENT_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private final Callers callers;
    private final InternalRepository repository;
    private final OrganizationRepository organizations;

    ApplicationLinks(Callers callers, InternalRepository repository, OrganizationRepository organizations) {
        this.callers = callers;
        this.repository = repository;
        this.organizations = organizations;
    }

    /** True when the attachment is new, false when it replaced one. For another service only. */
    public Uni<Boolean> attach(long organizationId, String clientId, EdgeInput<JsonObject> permissions) {
        return callers.service().chain(service -> {
            requireClientId(clientId);
            JsonObject given = permissions.get();
            return organizations.byId(organizationId)
                    .onItem().ifNull().failWith(() -> ProblemException.notFound("No such organization."))
                    .chain(org -> repository.putLink(organizationId, clientId, given));
        });
    }

    /** For another service only. */
    public Uni<Void> detach(long organizationId, String clientId) {
        return callers.service().chain(service -> {
            requireClientId(clientId);
            return repository.deleteLink(organizationId, clientId);
        }).map(deleted -> {
            if (!deleted) {
                throw ProblemException.notFound("This application is not attached to this organization.");
            }
            return null;
        });
    }

    /** For another service only. */
    public Uni<List<Linked>> of(String clientId) {
        return callers.service().chain(service -> {
            requireClientId(clientId);
            return repository.linksOf(clientId);
        }).chain(links -> links.isEmpty() ? Uni.createFrom().item(List.<Linked>of())
                : organizations.byIds(links.stream().map(InternalRepository.Link::organizationId).toArray(Long[]::new))
                        .map(orgs -> orgs.stream().map(org -> new Linked(org, links.stream()
                                .filter(l -> l.organizationId() == org.id()).findFirst().orElseThrow().permissions()))
                                .toList()));
    }

    private static void requireClientId(String clientId) {
        if (clientId == null || !CLIENT_ID.matcher(clientId).matches()) {
            throw ProblemException.notFound("No application has client id '" + clientId + "'.");
        }
    }
}
