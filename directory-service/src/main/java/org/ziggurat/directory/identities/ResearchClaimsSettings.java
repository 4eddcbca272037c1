package org.ziggurat.directory.identities;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * How the directory names its groups and people to research infrastructures (AARC-G069, AARC-G002,
 * voperson): the operator's URN namespace for entitlements, and the authority (a domain of theirs)
 * that scopes them and the persistent person id.
 */
@ConfigMapping(prefix = "ziggurat.directory.research-claims")
public interface ResearchClaimsSettings {

    /** The entitlements' namespace, a URN the operator may mint under (for example urn:geant:example.org:ziggurat). */
    @WithDefault("urn:geant:ziggurat.invalid:ziggurat")
    String entitlementNamespace();

    /** The group authority after '#', and the scope of voperson_id: the platform's domain. */
    @WithDefault("ziggurat.invalid")
    String authority();
}
