package org.ziggurat.auth.federation;

import java.text.Normalizer;
import java.util.Locale;

/**
 * A username to propose to a person who makes an account through a provider, from what the
 * provider said (its username for them, their address's local part, their name), in the
 * directory's form: lower-case letters, digits and inner hyphens, at most 39. The person confirms
 * or changes it; the directory decides whether it is free.
 */
public final class UsernameProposals {

    static final int MAX = 39;

    private UsernameProposals() {
    }

    public static String of(UpstreamIdentity identity) {
        for (String candidate : new String[] {identity.preferredUsername(),
                identity.email() == null ? null : identity.email().substring(0, Math.max(0, identity.email().indexOf('@'))),
                identity.name()}) {
            String proposal = shaped(candidate);
            if (proposal != null) {
                return proposal;
            }
        }
        return "";
    }

    /** The value in the directory's form, or null when nothing of it is left. */
    static String shaped(String value) {
        if (value == null) {
            return null;
        }
        // Accents off (é to e), anything else that is not a letter or digit becomes one hyphen.
        String plain = Normalizer.normalize(value, Normalizer.Form.NFKD).replaceAll("\\p{M}+", "").toLowerCase(Locale.ROOT);
        String shaped = plain.replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        // At most MAX characters, and no hyphen at the end of what is left.
        shaped = shaped.substring(0, Math.min(MAX, shaped.length())).replaceAll("-+$", "");
        return shaped.isEmpty() ? null : shaped;
    }
}
