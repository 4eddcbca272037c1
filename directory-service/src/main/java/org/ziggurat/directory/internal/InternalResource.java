package org.ziggurat.directory.internal;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.directory.identities.Entitlements;
import org.ziggurat.directory.identities.LinkedIdentities;
import org.ziggurat.directory.identities.ResearchClaimsSettings;
import org.ziggurat.platform.input.FieldChecks;
import org.ziggurat.directory.people.PersonViews;
import org.ziggurat.directory.people.ProfileDetails;
import org.ziggurat.platform.http.PathIds;
import org.ziggurat.platform.rest.http.PublicUrls;
import org.ziggurat.platform.problem.ProblemException;

import java.util.Arrays;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The directory's API for the other services ({@code /internal/**}): only a platform token that
 * a service signed for itself is accepted, and the gateway never routes here. Here: passwords,
 * people and their claims, namespaces; the rest has resources of its own beside this one
 * ({@link ApplicationLinksResource}, {@link LinkedIdentitiesResource}, ...).
 */
@Path("/internal")
@Produces(MediaType.APPLICATION_JSON)
public class InternalResource {

    static final int MAX_IDS = 100;

    private final PersonLookups people;
    private final NamespaceLookups namespaces;
    private final PasswordChecks passwords;

    private final LinkedIdentities identities;
    private final ResearchClaimsSettings researchSettings;

    InternalResource(PersonLookups people, NamespaceLookups namespaces, PasswordChecks passwords, LinkedIdentities identities,
            ResearchClaimsSettings researchSettings) {
        this.identities = identities;
        this.researchSettings = researchSettings;
        this.people = people;
        this.namespaces = namespaces;
        this.passwords = passwords;
    }

    @RegisterForReflection
    public record PasswordCheck(String login, String password, String clientAddress, String userAgent) {

        public PasswordCheck(String login, String password, String clientAddress) {
            this(login, password, clientAddress, null);
        }
    }

    @RegisterForReflection
    /** {@code secondFactor}: the person has one, so a password alone signs them in nowhere. */
    public record VerifiedPerson(long userId, String username, boolean secondFactor) {
    }

    /** A second factor's code to check for a person who passed the password (or to confirm an enrolment). */
    @RegisterForReflection
    public record SecondFactorCheck(long personId, String code, String clientAddress, String userAgent) {

        public SecondFactorCheck(long personId, String code, String clientAddress) {
            this(personId, code, clientAddress, null);
        }
    }

    /** How a code was accepted ({@code otp} or {@code recovery}), and the recovery codes left. */
    @RegisterForReflection
    public record AcceptedCode(String method, long recoveryCodesLeft) {
    }

    @RegisterForReflection
    public record PersonSummary(long id, String username, String displayName,
            @JsonProperty("image_thumb_50") String imageThumb50, String url,
            String htmlUrl, @JsonInclude(JsonInclude.Include.ALWAYS) String email) {
    }

    /**
     * Checks a password for a username or sign-in address. 200 with the person, 401 when refused
     * (the same answer, after the same work, whether or not the account exists), 429 with
     * {@code Retry-After} when the account or the client address failed too often.
     */
    @POST
    @Path("/passwords/verify")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> verifyPassword(PasswordCheck check) {
        return passwords.verify(check).map(outcome -> outcome.person() != null
                ? Response.ok(outcome.person()).build() : tooManyAttempts(outcome.retryAfter()));
    }

    /** 429 with Retry-After: the throttle refuses the caller (password and second-factor checks). */
    static Response tooManyAttempts(long retryAfter) {
        return Response.status(429).header("Retry-After", retryAfter).type("application/problem+json")
                .entity(Map.of("type", "about:blank", "title", "Too Many Requests", "status", 429,
                        "detail", "Too many attempts. Try again later."))
                .build();
    }

    /** Many people in one call: {@code ?ids=1,2,3} (at most 100); unknown ids are left out. */
    @GET
    @Path("/people")
    public Uni<List<PersonSummary>> people(@QueryParam("ids") String ids, @Context UriInfo uri) {
        PublicUrls urls = PublicUrls.of(uri);
        return people.people(parseIds(ids)).map(rows -> rows.stream().map(r -> {
            PersonViews.Person p = PersonViews.person(r, urls);
            return new PersonSummary(p.id(), p.username(), p.displayName(), p.imageThumb50(), p.url(), p.htmlUrl(),
                    r.publicEmail());
        }).toList());
    }

    /**
     * What auth-service tells a relying party of a person who signed in with OpenID Connect (the
     * profile and email scopes): the sign-in address too, which no public answer shows, when the
     * profile last changed, and the standard profile claims the person gave (ProfileDetails), the
     * private ones too: the relying party the person allowed the profile scope may know them.
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record OpenIdPerson(long id, String username, String displayName, String picture, String htmlUrl,
            String email, Instant updatedAt, boolean emailVerified, Research research, String givenName,
            String familyName, String website, String locale, String zoneinfo) {
    }

    /**
     * The research claims ({@code research=true}): the person's memberships as AARC-G069
     * entitlements, only of the organizations whose own API would let this sign-in in (one that
     * requires a second factor: the person has one and signed in with it,
     * {@code second_factor_sign_in=true}; absent: as without it), the ORCID iD that their linked
     * identities carry, and the persistent voperson id. No assurance: auth-service passes on what
     * the sign-in itself asserted.
     */
    @RegisterForReflection
    public record Research(List<String> entitlements, String orcid, List<String> assurance, String vopersonId) {
    }

    @GET
    @Path("/people/{id}/claims")
    public Uni<OpenIdPerson> claims(@PathParam("id") String id, @QueryParam("research") String research,
            @QueryParam("second_factor_sign_in") String secondFactorSignIn, @Context UriInfo uri) {
        long personId = PathIds.parse(id, "person");
        boolean withResearch = research != null && FieldChecks.flag("research", research);
        boolean withSecondFactor = secondFactorSignIn != null && FieldChecks.flag("second_factor_sign_in", secondFactorSignIn);
        PublicUrls urls = PublicUrls.of(uri);
        return people.person(personId).chain(r -> {
            PersonViews.Person p = PersonViews.person(r, urls);
            Uni<Research> researchClaims = !withResearch ? Uni.createFrom().nullItem()
                    : people.entitledMemberships(personId, withSecondFactor).chain(memberships -> identities.research(personId)
                            .map(linked -> new Research(Entitlements.of(researchSettings.entitlementNamespace(),
                                    researchSettings.authority(), memberships),
                                    linked.orcid(), linked.assurance(),
                                    Entitlements.vopersonId(personId, researchSettings.authority()))));
            ProfileDetails d = r.details();
            return researchClaims.map(claims -> new OpenIdPerson(p.id(), p.username(), p.displayName(), p.imageThumb50(),
                    p.htmlUrl(), r.email(), r.updatedAt(), r.emailVerified(), claims, d.givenName(), d.familyName(),
                    d.website(), d.locale(), d.zoneinfo()));
        });
    }

    /** The organizations in which the person is an active member, with their role. */
    @GET
    @Path("/people/{id}/organizations")
    public Uni<List<InternalRepository.OrganizationOfPerson>> organizationsOf(@PathParam("id") String id) {
        long personId = PathIds.parse(id, "person");
        return people.activeOrganizations(personId);
    }

    /**
     * A namespace's kind, id and visibility, and the rights of {@code person_id} (0 or absent:
     * anonymous) in it, who signed in with a second factor or not ({@code second_factor_sign_in};
     * absent: a caller from before the parameter, which cannot tell, and gets the rights a member
     * with a factor has).
     */
    @GET
    @Path("/namespaces/{name}")
    public Uni<NamespaceLookups.Namespace> namespace(@PathParam("name") String name,
            @QueryParam("person_id") String personId, @QueryParam("second_factor_sign_in") String secondFactorSignIn) {
        long person = personId == null || personId.isBlank() || personId.equals("0") ? 0 : PathIds.parse(personId, "person");
        if (secondFactorSignIn != null && !secondFactorSignIn.equals("true") && !secondFactorSignIn.equals("false")) {
            throw ProblemException.badRequest("second_factor_sign_in is true or false.");
        }
        return namespaces.rights(name, person, secondFactorSignIn == null || secondFactorSignIn.equals("true"));
    }

    static Long[] parseIds(String ids) {
        if (ids == null || ids.isBlank()) {
            throw ProblemException.invalidField("ids", "is required: a comma-separated list of person ids");
        }
        String[] parts = ids.split(",");
        if (parts.length > MAX_IDS) {
            throw ProblemException.invalidField("ids", "at most " + MAX_IDS + " ids a call");
        }
        try {
            return Arrays.stream(parts).map(String::strip).map(Long::parseLong).distinct().toArray(Long[]::new);
        } catch (NumberFormatException e) {
            throw ProblemException.invalidField("ids", "must be whole numbers separated by commas");
        }
    }
}
