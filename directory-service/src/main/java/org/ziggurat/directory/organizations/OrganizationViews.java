package org.ziggurat.directory.organizations;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.ziggurat.directory.people.PersonRow;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.ziggurat.directory.people.PersonViews;
import org.ziggurat.platform.rest.http.PublicUrls;

import java.time.Instant;
import java.util.List;

/** The spec's Organization and Membership. */
public final class OrganizationViews {

    private OrganizationViews() {
    }

    /** The spec's fields ({@code id}, {@code name}, {@code member_ids}, {@code oauth_application_uids}) and ours. */
    @RegisterForReflection
    public record Organization(long id, String name, String displayName, String visibility,
            boolean twoFactorRequirementEnabled, List<Long> memberIds,
            List<String> oauthApplicationUids, String url, String htmlUrl, String membersUrl, String avatarUrl,
            Instant createdAt, Instant updatedAt) {
    }

    @RegisterForReflection
    public record Membership(String url, String state, String role, String projectUrl, Project project,
            MemberUser user) {
    }

    @RegisterForReflection
    @Schema(name = "MembershipOrganization")
    public record Project(String name, String url, long id, String membersUrl, String avatarUrl, String type) {
    }

    @RegisterForReflection
    @Schema(name = "MembershipPerson")
    public record MemberUser(String username, String url, String htmlUrl, long id, String avatarUrl, String type) {
    }

    public static Organization organization(OrganizationRow row, PublicUrls urls) {
        String self = urls.api("/organizations/" + row.id());
        return new Organization(row.id(), row.name(), row.displayName(), row.visibility(), row.twoFactorRequired(),
                row.memberIds(),
                row.applicationClientIds(), self, urls.web("/" + row.name()), self + "/members", self + "/avatar",
                row.createdAt(), row.updatedAt());
    }

    public static Membership membership(MembershipRow row, PublicUrls urls) {
        String org = urls.api("/organizations/" + row.organizationId());
        String person = urls.api("/people/" + row.username());
        return new Membership(org + "/memberships/" + row.personId(), row.state(), row.role(), org,
                new Project(row.organizationName(), org, row.organizationId(), org + "/members", org + "/avatar",
                        "Project"),
                new MemberUser(row.username(), person, urls.web("/" + row.username()), row.personId(),
                        person + "/avatar", "User"));
    }

    /** Members are listed as the spec's Person. */
    public static List<PersonViews.Person> members(List<PersonRow> rows, PublicUrls urls) {
        return rows.stream().map(r -> PersonViews.person(r, urls)).toList();
    }
}
