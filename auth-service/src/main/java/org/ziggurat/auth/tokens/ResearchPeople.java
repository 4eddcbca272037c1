package org.ziggurat.auth.tokens;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.ziggurat.auth.oauth.ResearchClaims;
import org.ziggurat.directory.client.DirectoryClient;

import java.util.Collection;
import java.util.Map;

/**
 * A person's research claims from the directory, for ID tokens and introspection answers whose
 * scopes ask for them (only then: other tokens cost no call).
 */
@ApplicationScoped
public class ResearchPeople {

    private final DirectoryClient directory;

    ResearchPeople(@RestClient DirectoryClient directory) {
        this.directory = directory;
    }

    public static ResearchClaims.Person of(DirectoryClient.Research research) {
        return research == null ? null
                : new ResearchClaims.Person(research.entitlements(), research.orcid(), research.assurance(), research.vopersonId());
    }

    /** The claims these scopes ask for (none: an empty map, without a call); none for a person deleted meanwhile. */
    public Uni<Map<String, Object>> claims(long personId, Collection<String> scopes) {
        if (!ResearchClaims.asked(scopes)) {
            return Uni.createFrom().item(Map.of());
        }
        return directory.claims(personId, true).map(person -> ResearchClaims.of(of(person.research()), scopes))
                .onFailure(DirectoryClient.NotFound.class).recoverWithItem(Map.of());
    }
}
