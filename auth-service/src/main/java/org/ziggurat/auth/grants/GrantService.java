package org.ziggurat.auth.grants;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.auth.clients.AccessorRepository;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.auth.tokens.GrantRepository;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.platform.permissions.UserPermissions;
import org.ziggurat.platform.problem.ProblemException;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.Callers;

/**
 * A person's grants (what they consented to, per application) and authorizations (their live
 * access tokens, with the user permissions each application has for them), as the spec's 4.1
 * shows them; revoking a grant.
 */
@ApplicationScoped
public class GrantService {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final GrantRepository grants;
    private final Permissions permissions;
    private final AccessorRepository accessors;
    private final TokenCrypto crypto;
    private final DirectoryClient directory;
    private final Callers callers;

    public GrantService(GrantRepository grants, Permissions permissions, AccessorRepository accessors, TokenCrypto crypto,
            @RestClient DirectoryClient directory, Callers callers) {
        this.callers = callers;
        this.grants = grants;
        this.permissions = permissions;
        this.accessors = accessors;
        this.crypto = crypto;
        this.directory = directory;
    }

    /** The calling person's id: every method answers a person about their own grants, first of all. */
    private Uni<Long> person() {
        return callers.current().map(Caller::requireUser);
    }

    public Uni<List<GrantViews.Grant>> grants(PublicUrls urls) {
        return person().chain(person -> grants(person, urls));
    }

    public Uni<GrantViews.Grant> grant(long grantId, PublicUrls urls) {
        return person().chain(person -> grant(person, grantId, urls));
    }

    public Uni<Integer> revokeGrant(long grantId) {
        return person().chain(person -> revokeGrant(person, grantId));
    }

    public Uni<List<GrantViews.Authorization>> authorizations(PublicUrls urls) {
        return person().chain(person -> authorizations(person, urls));
    }

    public Uni<GrantViews.Authorization> authorization(long tokenId, PublicUrls urls) {
        return person().chain(person -> authorization(person, tokenId, urls));
    }

    /** The caller's existing authorization for one application (below). */
    public Uni<GrantViews.Authorization> forClient(String clientId, PublicUrls urls) {
        return callers.current().chain(c -> forClient(c.requireUser(), c.clientId(), clientId, urls));
    }

    Uni<List<GrantViews.Grant>> grants(long person, PublicUrls urls) {
        return grants.grants(person).map(rows -> rows.stream().map(r -> GrantViews.grant(r, urls)).toList());
    }

    Uni<GrantViews.Grant> grant(long person, long grantId, PublicUrls urls) {
        return existingGrant(person, grantId).map(r -> GrantViews.grant(r, urls));
    }

    /** Every token of the grant's application for the person, and the remembered consent. */
    Uni<Integer> revokeGrant(long person, long grantId) {
        return existingGrant(person, grantId).chain(grant -> grants.revokeGrant(person, grant).invoke(count -> EVENTS.infof(
                "event=grant_revoked client_id=%s person_id=%d revoked_tokens=%d", grant.clientId(), person, count)));
    }

    Uni<List<GrantViews.Authorization>> authorizations(long person, PublicUrls urls) {
        return grants.authorizations(person).chain(rows -> permissions.effective(person,
                        rows.stream().map(GrantRepository.AuthorizationRow::applicationId).filter(Objects::nonNull).distinct().toList())
                .map(merged -> rows.stream().map(r -> GrantViews.authorization(r,
                        r.applicationId() == null ? UserPermissions.NONE : merged.get(r.applicationId()), urls)).toList()));
    }

    Uni<GrantViews.Authorization> authorization(long person, long tokenId, PublicUrls urls) {
        return grants.authorization(person, tokenId)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("No such authorization."))
                .chain(row -> (row.applicationId() == null ? Uni.createFrom().item(UserPermissions.NONE)
                        : permissions.effective(person, List.of(row.applicationId())).map(m -> m.get(row.applicationId())))
                        .map(p -> GrantViews.authorization(row, p, urls)));
    }

    /**
     * The person's newest authorization for one application, with the live token value (so only
     * to the person's own token or one of that application: {@link ClientBoundReads}), the user
     * permissions, and who else the owner gave permissions: organizations the person may see,
     * and people. {@code callerClientId} is the client of the token that asks, if any.
     */
    Uni<GrantViews.Authorization> forClient(long person, Optional<String> callerClientId, String clientId,
            PublicUrls urls) {
        if (!ClientBoundReads.mayRead(callerClientId, clientId)) {
            // The same answer as for no authorization: nothing to learn of the other application.
            return Uni.createFrom().failure(noAuthorizationFor());
        }
        return grants.newestForClient(person, clientId)
                .onItem().ifNull().failWith(GrantService::noAuthorizationFor)
                .chain(row -> permissions.effective(person, List.of(row.applicationId()))
                        .chain(merged -> accessors.ofApplication(row.applicationId()).chain(all -> {
                            Long[] people = all.stream().filter(a -> a.kind().equals(AccessorRepository.PERSON))
                                    .map(AccessorRepository.Accessor::subjectId).toArray(Long[]::new);
                            Uni<List<DirectoryClient.PersonSummary>> users = people.length == 0
                                    ? Uni.createFrom().item(List.of())
                                    : directory.people(String.join(",", Arrays.stream(people).map(String::valueOf).toList()));
                            return users.chain(userList -> directory.linkedOrganizations(clientId).map(orgs -> {
                                List<JsonNode> visible = orgs.stream().map(DirectoryClient.LinkedOrganization::organization)
                                        .filter(o -> "public".equals(o.path("visibility").asText()) || memberOf(o, person))
                                        .toList();
                                GrantViews.Authorization base = GrantViews.authorization(row, merged.get(row.applicationId()), urls);
                                return new GrantViews.Authorization(base.id(), base.url(), base.scopes(),
                                        row.sealed() == null ? "" : crypto.decrypt(row.sealed()), base.userPermissions(),
                                        base.app(), base.updatedAt(), base.createdAt(), visible,
                                        userList.stream().map(GrantViews::accessor).toList());
                            }));
                        })));
    }

    /** Whether a path's client id could name an application at all (else: {@link #noAuthorizationFor}). */
    public static boolean couldBeClientId(String clientId) {
        return clientId != null && clientId.matches("[A-Za-z0-9_-]{1,64}");
    }

    public static ProblemException noAuthorizationFor() {
        return ProblemException.notFound("No authorization for this application.");
    }

    private Uni<GrantRepository.GrantRow> existingGrant(long person, long grantId) {
        return grants.grant(person, grantId).onItem().ifNull().failWith(() -> ProblemException.notFound("No such grant."));
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
