package org.ziggurat.auth;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import org.ziggurat.auth.granttypes.PasswordGrant;
import org.ziggurat.auth.granttypes.TokenGrant;
import org.ziggurat.auth.granttypes.TokenGrants;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.platform.testing.ModuleGraphChecks;

import java.util.Map;
import java.util.Set;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.ziggurat.platform.testing.ModuleGraph.ROOT;

/**
 * The module graph inside auth-service points one way (auth-service/README.md, "Inside"): the
 * protocol ({@code oauth}) and the machinery ({@code throughput}, {@code http}) use nothing of the
 * domain; clients nothing of tokens; tokens nothing of the authorization flow or of the grant
 * types; and nothing uses the HTTP layers ({@code pages}, {@code endpoints}, the grants API). Each
 * grant type of the token endpoint is one {@link TokenGrant}, reached only through
 * {@link TokenGrants}. Plain JUnit: no Quarkus starts.
 */
class ArchitectureTest extends ModuleGraphChecks {

    static final Map<String, Set<String>> MAY_USE = Map.ofEntries(
            entry(ROOT, Set.of()),
            entry("oauth", Set.of()),
            entry("http", Set.of()),
            entry("throughput", Set.of()),
            entry("audit", Set.of()),
            entry("crypto", Set.of(ROOT)),
            entry("keys", Set.of(ROOT, "crypto")),
            entry("clients", Set.of(ROOT, "oauth", "crypto")),
            entry("tokens", Set.of(ROOT, "oauth", "crypto", "clients", "throughput", "keys")),
            entry("passkeys", Set.of(ROOT, "crypto")),
            entry("dpop", Set.of(ROOT, "oauth", "crypto")),
            entry("federation", Set.of(ROOT, "oauth", "crypto", "clients")),
            entry("authorization", Set.of(ROOT, "oauth", "crypto", "http", "clients", "tokens", "passkeys", "people",
                    "federation")),
            entry("grants", Set.of(ROOT, "oauth", "crypto", "clients", "tokens")),
            entry("granttypes", Set.of(ROOT, "oauth", "crypto", "clients", "tokens", "dpop")),
            entry("endpoints", Set.of(ROOT, "oauth", "crypto", "http", "clients", "tokens", "keys", "authorization",
                    "granttypes", "federation", "dpop")),
            entry("pages", Set.of(ROOT, "oauth", "crypto", "http", "clients", "authorization", "passkeys", "federation")),
            entry("people", Set.of(ROOT, "clients", "tokens")));

    @Override
    protected String root() {
        return "org.ziggurat.auth";
    }

    @Override
    protected Map<String, Set<String>> mayUse() {
        return MAY_USE;
    }

    @Test
    void repositoriesThrowNoOAuthErrors() {
        noClasses().that().haveSimpleNameEndingWith("Repository").should().dependOnClassesThat(assignableTo(OAuthException.class))
                .because("an OAuth error answer is the protocol's, not the rows'").check(graph().classes());
    }

    /** A grant type is a class of its own, named for what it is, in one package. */
    static final ArchRule GRANT_HANDLERS = classes().that().implement(TokenGrant.class).should().haveSimpleNameEndingWith("Grant")
            .andShould().resideInAPackage("org.ziggurat.auth.granttypes");
    /** Nothing but the registry reaches a grant handler: a new grant is a new class, not an edit of a caller. */
    static final ArchRule GRANTS_BY_TYPE_ONLY = noClasses().that().doNotImplement(TokenGrant.class)
            .and().doNotHaveFullyQualifiedName(TokenGrants.class.getName())
            .should().dependOnClassesThat().implement(TokenGrant.class)
            .because("the token endpoint reaches a grant by its grant_type, never by name");

    @Test
    void eachGrantTypeIsOneHandlerReachedThroughTheRegistry() {
        GRANT_HANDLERS.check(graph().classes());
        GRANTS_BY_TYPE_ONLY.check(graph().classes());
    }

    /** What the rules above are for: a caller that names a grant, and a handler off the scheme. */
    static final class CallsAGrantByName {
        String type(PasswordGrant grant) {
            return grant.grantType();
        }
    }

    abstract static class Shortcut implements TokenGrant {
    }

    @Test
    void theGrantRulesCatchADeliberateViolation() {
        JavaClasses violating = new ClassFileImporter().importClasses(CallsAGrantByName.class, Shortcut.class,
                PasswordGrant.class, TokenGrant.class, TokenGrants.class);
        assertTrue(GRANTS_BY_TYPE_ONLY.evaluate(violating).hasViolation(), "a class that calls a grant by name");
        assertTrue(GRANT_HANDLERS.evaluate(violating).hasViolation(), "a handler outside granttypes, not named *Grant");
    }

    @Test
    void theProtocolTestsStartNoQuarkus() {
        noClasses().should().dependOnClassesThat().resideInAPackage("io.quarkus.test..")
                .because("the protocol's rules are plain code, tested as such")
                .check(new ClassFileImporter().withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
                        .importPackages("org.ziggurat.auth.oauth"));
    }
}
