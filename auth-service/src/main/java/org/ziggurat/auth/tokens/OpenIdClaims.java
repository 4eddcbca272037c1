package org.ziggurat.auth.tokens;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.ziggurat.auth.oauth.ResearchClaims;
import org.ziggurat.auth.oauth.UserInfoClaims;
import org.ziggurat.directory.client.DirectoryClient;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A person's OpenID Connect claims as their scopes give them (Core §5.4, {@link UserInfoClaims}),
 * read from the directory for the sign-in behind a token: what userinfo answers, and what an ID
 * token asked for by the claims parameter (§5.5) may carry. Fails with
 * {@link DirectoryClient.NotFound} for a person deleted meanwhile.
 */
@ApplicationScoped
public class OpenIdClaims {

    private final DirectoryClient directory;
    private final ResearchPeople researchPeople;

    OpenIdClaims(@RestClient DirectoryClient directory, ResearchPeople researchPeople) {
        this.directory = directory;
        this.researchPeople = researchPeople;
    }

    /**
     * The claims of {@code personId} for {@code scopes}; {@code amr}: how the token's person signed
     * in; the sign-in's assurance from its login session ({@code sessionHash}) or the access
     * token's ({@code tokenId}).
     */
    public Uni<Map<String, Object>> of(long personId, Collection<String> scopes, List<String> amr, Long tokenId,
            byte[] sessionHash) {
        return directory.claims(personId, ResearchClaims.asked(scopes), ResearchPeople.secondFactor(amr))
                .chain(p -> researchPeople.assurance(scopes, tokenId, sessionHash).map(assurance -> new UserInfoClaims.Person(
                        p.id(), p.username(), p.displayName(), p.picture(), p.htmlUrl(), p.email(), p.updatedAt(),
                        p.emailVerified(), ResearchPeople.of(p.research(), assurance), p.givenName(), p.familyName(),
                        p.website(), p.locale(), p.zoneinfo())))
                .map(person -> UserInfoClaims.of(person, scopes));
    }
}
