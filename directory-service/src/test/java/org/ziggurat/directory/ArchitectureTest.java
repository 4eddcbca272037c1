package org.ziggurat.directory;

import org.ziggurat.platform.testing.ModuleGraphChecks;

import java.util.Map;
import java.util.Set;

import static java.util.Map.entry;
import static org.ziggurat.platform.testing.ModuleGraph.ROOT;

/**
 * The module graph inside directory-service points one way: the HTTP resources ({@code api},
 * {@code internal}) on top; organizations, which have people as members, above people; people
 * above the password hashing ({@code security}). Plain JUnit: no Quarkus starts.
 */
class ArchitectureTest extends ModuleGraphChecks {

    static final Map<String, Set<String>> MAY_USE = Map.ofEntries(
            entry(ROOT, Set.of()),
            entry("security", Set.of(ROOT)),
            entry("mail", Set.of(ROOT)),
            entry("people", Set.of(ROOT, "security", "mail")),
            entry("factors", Set.of(ROOT, "people", "mail")),
            entry("organizations", Set.of(ROOT, "people", "security")),
            entry("securitylog", Set.of(ROOT, "factors", "mail")),
            entry("accountdata", Set.of(ROOT, "mail")),
            entry("identities", Set.of(ROOT, "people", "factors", "mail")),
            entry("internal", Set.of(ROOT, "people", "organizations", "security", "factors", "mail", "securitylog", "accountdata",
                    "identities")),
            entry("selfservice", Set.of(ROOT, "people", "factors", "internal", "accountdata")),
            entry("api", Set.of(ROOT, "people", "organizations", "security", "securitylog", "accountdata", "factors",
                    "selfservice", "identities")));

    @Override
    protected String root() {
        return "org.ziggurat.directory";
    }

    @Override
    protected Map<String, Set<String>> mayUse() {
        return MAY_USE;
    }
}
