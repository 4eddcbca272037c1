package org.ziggurat.directory.internal;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.organizations.OrganizationRepository;
import org.ziggurat.directory.organizations.OrganizationRow;
import org.ziggurat.platform.problem.ProblemException;

import java.util.List;

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

    private final InternalRepository repository;
    private final OrganizationRepository organizations;

    ApplicationLinks(InternalRepository repository, OrganizationRepository organizations) {
        this.repository = repository;
        this.organizations = organizations;
    }

    /** True when the attachment is new, false when it replaced one. */
    public Uni<Boolean> attach(long organizationId, String clientId, JsonObject permissions) {
        return organizations.byId(organizationId)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No such organization."))
                .chain(org -> repository.putLink(organizationId, clientId, permissions));
    }

    public Uni<Void> detach(long organizationId, String clientId) {
        return repository.deleteLink(organizationId, clientId).map(deleted -> {
            if (!deleted) {
                throw ProblemException.notFound("This application is not attached to this organization.");
            }
            return null;
        });
    }

    public Uni<List<Linked>> of(String clientId) {
        return repository.linksOf(clientId).chain(links -> links.isEmpty() ? Uni.createFrom().item(List.<Linked>of())
                : organizations.byIds(links.stream().map(InternalRepository.Link::organizationId).toArray(Long[]::new))
                        .map(orgs -> orgs.stream().map(org -> new Linked(org, links.stream()
                                .filter(l -> l.organizationId() == org.id()).findFirst().orElseThrow().permissions()))
                                .toList()));
    }
}
