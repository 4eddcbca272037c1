package org.ziggurat.auth.federation;

import java.util.List;

/**
 * What a provider vouched for after a sign-in there: its subject (stable, never reassigned by a
 * provider worth trusting), the names and address it gave, whether it verified the address, REFEDS
 * assurance (only the values the operator lets this provider assert), an ORCID iD (only from ORCID or a
 * provider configured to release one), how it signed the person in (RFC 8176 methods, from its amr and
 * acr), and the issuer that vouched (the provider's {@link Upstream#issuer()}: a link records it).
 */
public record UpstreamIdentity(String provider, String subject, String preferredUsername, String name, String email,
        boolean emailVerified, List<String> assurance, String orcid, List<String> amr, String issuer) {

    /** The provider's name for the person, for the account page: an address, a login, or the subject. */
    public String label() {
        if (email != null) {
            return email;
        }
        return preferredUsername != null ? preferredUsername : subject;
    }
}
