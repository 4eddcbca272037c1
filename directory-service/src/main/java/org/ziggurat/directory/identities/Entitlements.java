package org.ziggurat.directory.identities;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A person's memberships as {@code eduperson_entitlement} values (AARC-G069):
 * {@code <namespace>:group:<organization>#<authority>} for the membership, and
 * {@code <namespace>:group:<organization>:role=<role>#<authority>} for its role, as AARC-G002
 * has a service decide from either. Organization names are already URN-safe (lower-case letters,
 * digits, hyphens); anything else would be percent-encoded as RFC 8141 asks.
 */
public final class Entitlements {

    /** An active membership: the organization's name and the role in it. */
    public record Membership(String organization, String role) {
    }

    private Entitlements() {
    }

    /**
     * Whether a membership's entitlements go into the claims of a sign-in: as the organization's own
     * API would let that sign-in in (NamespaceLookups): an organization that requires a second
     * factor only to a person who has one and signed in with it.
     */
    public static boolean released(boolean twoFactorRequired, boolean personHasSecondFactor, boolean secondFactorSignIn) {
        return !twoFactorRequired || personHasSecondFactor && secondFactorSignIn;
    }

    public static List<String> of(String namespace, String authority, List<Membership> memberships) {
        List<String> values = new ArrayList<>();
        memberships.stream().sorted(Comparator.comparing(Membership::organization)).forEach(m -> {
            String group = namespace + ":group:" + encoded(m.organization());
            values.add(group + "#" + authority);
            values.add(group + ":role=" + encoded(m.role()) + "#" + authority);
        });
        return values;
    }

    /** The persistent, never reassigned id of voperson (a person's id in the directory) scoped by the authority. */
    public static String vopersonId(long personId, String authority) {
        return personId + "@" + authority;
    }

    static String encoded(String segment) {
        StringBuilder out = new StringBuilder();
        for (byte b : segment.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }
}
