package org.ziggurat.vocab;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.ModuleGraph;
import org.ziggurat.vocab.imports.ConceptImportRepository;
import org.ziggurat.vocab.imports.ImportWorker;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.ziggurat.platform.testing.ModuleGraphChecks;

import java.util.Map;
import java.util.Set;

import static java.util.Map.entry;
import static org.ziggurat.platform.testing.ModuleGraph.ROOT;

/**
 * The module graph inside vocab-service points one way: schemes at the bottom; concepts, which belong to a scheme, above them; RDF (reading and writing SKOS) above both, and the scheme's export stated by schemes ({@code SchemeExport}) and written there; imports on top. Plain JUnit: no Quarkus starts.
 */
class ArchitectureTest extends ModuleGraphChecks {

    static final Map<String, Set<String>> MAY_USE = Map.ofEntries(
            entry(ROOT, Set.of()),
            entry("schemes", Set.of(ROOT)),
            entry("concepts", Set.of(ROOT, "schemes")),
            entry("rdf", Set.of(ROOT, "schemes", "concepts")),
            entry("imports", Set.of(ROOT, "schemes", "concepts", "rdf")),
            entry("people", Set.of(ROOT)));

    @Override
    protected String root() {
        return "org.ziggurat.vocab";
    }

    @Override
    protected Map<String, Set<String>> mayUse() {
        return MAY_USE;
    }

    /** What the transaction rule is for: an import run that opens its own transaction. */
    static final class ImportShortcut {
        Uni<Void> run(Pool pool) {
            return pool.withTransaction(conn -> Uni.createFrom().voidItem());
        }
    }

    @Test
    void theTransactionRuleCatchesADeliberateViolation() {
        assertTrue(ModuleGraph.ONLY_REPOSITORIES_OPEN_TRANSACTIONS.evaluate(new ClassFileImporter()
                .importClasses(ImportShortcut.class)).hasViolation(), "a class that is no repository opens a transaction");
        assertFalse(ModuleGraph.ONLY_REPOSITORIES_OPEN_TRANSACTIONS.evaluate(new ClassFileImporter()
                .importClasses(ConceptImportRepository.class, ImportWorker.class)).hasViolation(),
                "a repository opens it, for the worker that runs the import");
    }
}
