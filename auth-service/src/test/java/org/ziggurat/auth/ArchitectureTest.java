package org.ziggurat.auth;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.platform.testing.ModuleGraphChecks;

import java.util.Map;
import java.util.Set;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static java.util.Map.entry;
import static org.ziggurat.platform.testing.ModuleGraph.ROOT;

/**
 * The module graph inside auth-service points one way (README, "Inside"): the protocol
 * ({@code oauth}) and the machinery ({@code throughput}, {@code http}) use nothing of the domain;
 * clients nothing of tokens; tokens nothing of the authorization flow; and nothing uses the HTTP
 * layers ({@code pages}, {@code endpoints}, the grants API). Plain JUnit: no Quarkus starts.
 */
class ArchitectureTest extends ModuleGraphChecks {

    static final Map<String, Set<String>> MAY_USE = Map.ofEntries(
            entry(ROOT, Set.of()),
            entry("oauth", Set.of()),
            entry("http", Set.of()),
            entry("throughput", Set.of()),
            entry("crypto", Set.of(ROOT)),
            entry("keys", Set.of(ROOT, "crypto")),
            entry("clients", Set.of(ROOT, "oauth", "crypto")),
            entry("tokens", Set.of(ROOT, "oauth", "crypto", "clients", "throughput", "keys")),
            entry("authorization", Set.of(ROOT, "oauth", "crypto", "clients", "tokens")),
            entry("grants", Set.of(ROOT, "oauth", "crypto", "clients", "tokens")),
            entry("endpoints", Set.of(ROOT, "oauth", "crypto", "http", "clients", "tokens", "keys", "authorization")),
            entry("pages", Set.of(ROOT, "oauth", "crypto", "http", "clients", "authorization")));

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

    @Test
    void theProtocolTestsStartNoQuarkus() {
        noClasses().should().dependOnClassesThat().resideInAPackage("io.quarkus.test..")
                .because("the protocol's rules are plain code, tested as such")
                .check(new ClassFileImporter().withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
                        .importPackages("org.ziggurat.auth.oauth"));
    }
}
