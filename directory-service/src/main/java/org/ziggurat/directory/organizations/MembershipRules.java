package org.ziggurat.directory.organizations;

import org.ziggurat.platform.permissions.NamespaceAccess.Withheld;

/**
 * Who may see and do what in an organization, from memberships, apart from the database: the
 * rules {@link OrganizationService} and the internal namespace look-up apply. Only an active
 * membership gives rights; an invitation (pending) lets the person see the organization they are
 * invited to as its members see it (its page, its people), since its admins chose to show it to
 * them, and nothing more: no content of its namespace, no writing.
 */
public final class MembershipRules {

    private MembershipRules() {
    }

    /** What one person may do in a namespace (a person's or an organization's), as other services ask. */
    public record Rights(boolean read, boolean write, boolean admin) {
    }

    /** A person's namespace: everyone reads it, its person alone writes and administers it. */
    public static Rights inPersonNamespace(long owner, long viewer) {
        boolean own = owner == viewer;
        return new Rights(true, own, own);
    }

    /**
     * An organization's namespace: read when it is public or the viewer is an active member;
     * written by active members; administered by active admins. {@code role} and {@code state}
     * are the viewer's membership's, null when there is none.
     */
    public static Rights inOrganizationNamespace(String visibility, String role, String state) {
        boolean active = MembershipRow.ACTIVE.equals(state);
        return new Rights("public".equals(visibility) || active, active, active && MembershipRow.ADMIN.equals(role));
    }

    /** Whether the viewer sees the organization: it is public, or the viewer is a member or invited to it. */
    public static boolean sees(OrganizationRow organization, MembershipRow viewersMembership) {
        return organization.isPublic() || viewersMembership != null;
    }

    /** Whether the person may change the organization and its memberships. */
    public static boolean administers(MembershipRow membership) {
        return membership != null && membership.isActiveAdmin();
    }

    /**
     * What an organization's requirement of a second factor withholds from an admin in its own
     * administration (the organization, its memberships, applications and webhooks), as from a
     * member in its data: nothing where none is required; all of it until they set one up, or, with
     * one, until they sign in with it ({@code signedInWithSecondFactor}: this call's sign-in did).
     */
    public static Withheld inAdministration(boolean secondFactorRequired, boolean hasSecondFactor,
            boolean signedInWithSecondFactor) {
        return secondFactorRequired ? toChangeTheRequirement(hasSecondFactor, signedInWithSecondFactor) : Withheld.NOTHING;
    }

    /**
     * Turning the requirement on or off needs a sign-in with a second factor, whether it is on or
     * not: otherwise whoever administers without one switches it off, then reads.
     */
    public static Withheld toChangeTheRequirement(boolean hasSecondFactor, boolean signedInWithSecondFactor) {
        return Withheld.of(!hasSecondFactor, !signedInWithSecondFactor);
    }

    /** Whether the viewer sees someone's membership: their own, or any when they have one themselves. */
    public static boolean seesMembership(long viewer, MembershipRow viewersMembership, long personId) {
        return viewersMembership != null || viewer == personId;
    }

    /**
     * Whether a change of {@code existing} (a new role; null: the membership goes) must leave
     * another active admin behind: an organization keeps at least one.
     */
    public static boolean needsAnotherAdmin(MembershipRow existing, String newRole) {
        return existing.isActiveAdmin() && !MembershipRow.ADMIN.equals(newRole);
    }

    /** With this many active admins, one of them may step down or go. */
    public static boolean anAdminMayGo(long activeAdmins) {
        return activeAdmins > 1;
    }
}
