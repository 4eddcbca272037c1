package org.ziggurat.auth.oauth;

import org.ziggurat.platform.token.ScopeNames;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The research claims of a person by scope, as research infrastructures' services read them:
 * {@code eduperson_entitlement} (AARC-G069 values of their memberships), {@code orcid} (the iD as
 * its https://orcid.org/ URI, as ORCID's own ID tokens and the AARC profiles write it),
 * {@code eduperson_assurance} (REFEDS RAF values their linked providers asserted),
 * {@code voperson_id} (persistent, never reassigned). An empty value is left out.
 */
public final class ResearchClaims {

    /** The claims that these scopes name, for discovery's claims_supported. */
    public static final List<String> SUPPORTED = List.of("eduperson_entitlement", "orcid", "eduperson_assurance", "voperson_id");

    private ResearchClaims() {
    }

    /** What the directory knows of the person for these claims. */
    public record Person(List<String> entitlements, String orcid, List<String> assurance, String vopersonId) {
    }

    public static boolean asked(Collection<String> scopes) {
        return ScopeNames.RESEARCH.stream().anyMatch(scopes::contains);
    }

    public static Map<String, Object> of(Person person, Collection<String> scopes) {
        Map<String, Object> claims = new LinkedHashMap<>();
        if (person != null) {
            if (scopes.contains(ScopeNames.ENTITLEMENTS) && person.entitlements() != null && !person.entitlements().isEmpty()) {
                claims.put("eduperson_entitlement", person.entitlements());
            }
            if (scopes.contains(ScopeNames.ORCID) && person.orcid() != null) {
                claims.put("orcid", "https://orcid.org/" + person.orcid());
            }
            if (scopes.contains(ScopeNames.EDUPERSON_ASSURANCE) && person.assurance() != null && !person.assurance().isEmpty()) {
                claims.put("eduperson_assurance", person.assurance());
            }
            if (scopes.contains(ScopeNames.VOPERSON_ID) && person.vopersonId() != null) {
                claims.put("voperson_id", person.vopersonId());
            }
        }
        return claims;
    }
}
