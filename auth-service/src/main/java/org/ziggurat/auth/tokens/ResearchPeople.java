package org.ziggurat.auth.tokens;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.ziggurat.auth.oauth.AuthenticationMethods;
import org.ziggurat.auth.oauth.ResearchClaims;
import org.ziggurat.directory.client.DirectoryClient;
import org.ziggurat.platform.token.ScopeNames;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A person's research claims for ID tokens, userinfo and introspection answers whose scopes ask
 * for them (only then: other tokens cost no call), as they stand for the sign-in behind the token:
 * the entitlements of the organizations whose own API would let that sign-in in (the directory
 * answers for a sign-in with a second factor or without, from the token's {@code amr}), and
 * {@code eduperson_assurance} only as the provider of that very sign-in asserted it (kept with its
 * login session, filtered by the provider's allow-list): a password's sign-in, a token that outlived
 * its session, or one from before carries none.
 */
@ApplicationScoped
public class ResearchPeople {

    private final DirectoryClient directory;
    private final Pool pool;

    ResearchPeople(@RestClient DirectoryClient directory, Pool pool) {
        this.directory = directory;
        this.pool = pool;
    }

    /** The directory's research claims, with the assurance of the sign-in (none: null or empty). */
    public static ResearchClaims.Person of(DirectoryClient.Research research, List<String> assurance) {
        return research == null ? null
                : new ResearchClaims.Person(research.entitlements(), research.orcid(), assurance, research.vopersonId());
    }

    /** Whether a sign-in by these methods used a second factor (an unknown one did not). */
    public static boolean secondFactor(List<String> amr) {
        return amr != null && amr.contains(AuthenticationMethods.MULTIPLE_FACTORS);
    }

    /**
     * The claims these scopes ask for (none: an empty map, without a call); none for a person
     * deleted meanwhile. {@code amr}: how the token's person signed in; the sign-in's assurance is
     * read from its login session ({@code sessionHash}, when the caller has it: a token not committed
     * yet) or the access token's ({@code tokenId}).
     */
    public Uni<Map<String, Object>> claims(long personId, Collection<String> scopes, List<String> amr, Long tokenId,
            byte[] sessionHash) {
        if (!ResearchClaims.asked(scopes)) {
            return Uni.createFrom().item(Map.of());
        }
        return person(personId, amr).chain(research -> assurance(scopes, tokenId, sessionHash)
                        .map(assurance -> ResearchClaims.of(of(research, assurance), scopes)))
                .onFailure(DirectoryClient.NotFound.class).recoverWithItem(Map.of());
    }

    /** The directory's research claims of the person, for a sign-in by {@code amr}. */
    public Uni<DirectoryClient.Research> person(long personId, List<String> amr) {
        return directory.claims(personId, true, secondFactor(amr)).map(DirectoryClient.OpenIdPerson::research);
    }

    /** What the provider of the token's sign-in asserted (only when the scopes ask for it); empty when none. */
    public Uni<List<String>> assurance(Collection<String> scopes, Long tokenId, byte[] sessionHash) {
        if (!scopes.contains(ScopeNames.EDUPERSON_ASSURANCE) || tokenId == null && sessionHash == null) {
            return Uni.createFrom().item(List.of());
        }
        var query = sessionHash != null
                ? pool.preparedQuery("SELECT assurance FROM login_session WHERE session_hash = $1")
                        .execute(Tuple.of(Buffer.buffer(sessionHash)))
                : pool.preparedQuery("SELECT s.assurance FROM token t JOIN login_session s ON s.session_hash = t.session_hash "
                        + "WHERE t.id = $1").execute(Tuple.of(tokenId));
        return query.map(rows -> {
            if (rows.rowCount() == 0) {
                return List.of();
            }
            String[] values = rows.iterator().next().getArrayOfStrings("assurance");
            return values == null ? List.<String>of() : List.of(values);
        });
    }
}
