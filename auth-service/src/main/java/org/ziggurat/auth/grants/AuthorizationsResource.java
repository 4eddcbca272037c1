package org.ziggurat.auth.grants;

import org.ziggurat.platform.http.PathIds;
import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.ziggurat.auth.applications.ApplicationRepository;
import org.ziggurat.auth.directory.DirectoryClient;
import org.ziggurat.auth.tokens.TokenCrypto;
import org.ziggurat.platform.http.PublicUrls;
import org.ziggurat.platform.permissions.UserPermissions;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Callers;

import java.util.List;
import java.util.Objects;

/** The caller's authorizations (spec 4.1): one per live access token. */
@Path("/authorizations")
@Produces(MediaType.APPLICATION_JSON)
public class AuthorizationsResource {

    @Inject
    Callers callers;

    @Inject
    GrantRepository grants;

    @Inject
    Permissions permissions;

    @Inject
    AccessorRepository accessors;

    @Inject
    ApplicationRepository applications;

    @Inject
    TokenCrypto crypto;

    @Inject
    @RestClient
    DirectoryClient directory;

    @GET
    public Uni<List<GrantViews.Authorization>> list(@Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        return callers.current().chain(c -> {
            long person = c.requireUser();
            return grants.authorizations(person).chain(rows -> permissions.effective(person,
                            rows.stream().map(GrantRepository.AuthorizationRow::applicationId).filter(Objects::nonNull).distinct().toList())
                    .map(merged -> rows.stream().map(r -> GrantViews.authorization(r,
                            r.applicationId() == null ? UserPermissions.NONE : merged.get(r.applicationId()), urls)).toList()));
        });
    }

    @GET
    @Path("/{id}")
    public Uni<GrantViews.Authorization> get(@PathParam("id") String id, @Context UriInfo uri) {
        long tokenId = PathIds.parse(id, "authorization");
        return callers.current().chain(c -> {
            long person = c.requireUser();
            return grants.authorization(person, tokenId)
                    .onItem().ifNull().failWith(() -> ProblemException.notFound("No such authorization."))
                    .chain(row -> (row.applicationId() == null ? Uni.createFrom().item(UserPermissions.NONE)
                            : permissions.effective(person, List.of(row.applicationId())).map(m -> m.get(row.applicationId())))
                            .map(p -> GrantViews.authorization(row, p, PublicUrls.of(uri))));
        });
    }

    /**
     * The caller's existing authorization for one application, with the live token value (so only
     * to the person's own token or one of that application: {@link ClientBoundReads}), the user
     * permissions, and who else the owner gave permissions: organizations the caller may
     * see, and people.
     */
    @GET
    @Path("/clients/{clientId}")
    public Uni<GrantViews.Authorization> forClient(@PathParam("clientId") String clientId, @Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        if (clientId == null || !clientId.matches("[A-Za-z0-9_-]{1,64}")) {
            throw ProblemException.notFound("No authorization for this application.");
        }
        return callers.current().chain(c -> {
            long person = c.requireUser();
            if (!ClientBoundReads.mayRead(c.clientId(), clientId)) {
                // The same answer as for no authorization: nothing to learn of the other application.
                throw ProblemException.notFound("No authorization for this application.");
            }
            return grants.newestForClient(person, clientId)
                    .onItem().ifNull().failWith(() -> ProblemException.notFound("No authorization for this application."))
                    .chain(row -> permissions.effective(person, List.of(row.applicationId()))
                            .chain(merged -> accessors.ofApplication(row.applicationId()).chain(all -> {
                                Long[] people = all.stream().filter(a -> a.kind().equals(AccessorRepository.PERSON))
                                        .map(AccessorRepository.Accessor::subjectId).toArray(Long[]::new);
                                Uni<List<DirectoryClient.PersonSummary>> users = people.length == 0
                                        ? Uni.createFrom().item(List.of())
                                        : directory.people(String.join(",", java.util.Arrays.stream(people).map(String::valueOf).toList()));
                                return users.chain(userList -> directory.linkedOrganizations(clientId).map(orgs -> {
                                    List<JsonNode> visible = orgs.stream().map(DirectoryClient.LinkedOrganization::organization)
                                            .filter(o -> "public".equals(o.path("visibility").asText())
                                                    || memberOf(o, person)).toList();
                                    GrantViews.Authorization base = GrantViews.authorization(row, merged.get(row.applicationId()), urls);
                                    return new GrantViews.Authorization(base.id(), base.url(), base.scopes(),
                                            row.sealed() == null ? "" : crypto.decrypt(row.sealed()), base.userPermissions(),
                                            base.app(), base.updatedAt(), base.createdAt(), visible,
                                            userList.stream().map(GrantViews::accessor).toList());
                                }));
                            })));
        });
    }

    private static boolean memberOf(JsonNode organization, long person) {
        for (JsonNode id : organization.path("member_ids")) {
            if (id.asLong() == person) {
                return true;
            }
        }
        return false;
    }
}
