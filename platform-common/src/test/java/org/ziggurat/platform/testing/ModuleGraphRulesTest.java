package org.ziggurat.platform.testing;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The module-graph rules catch what they are for, on classes made to break them. */
class ModuleGraphRulesTest {

    static final class PeopleRepository {
        String byName(String name) {
            return name;
        }
    }

    static final class PeopleService {
        private final PeopleRepository people = new PeopleRepository();

        String named(String name) {
            return people.byName(name);
        }
    }

    /** Reaches the rows past the service. */
    static final class PeopleResource {
        private final PeopleRepository people = new PeopleRepository();

        String get(String name) {
            return people.byName(name);
        }
    }

    /** Through the service, as it should. */
    static final class OrganizationsResource {
        private final PeopleService people = new PeopleService();

        String get(String name) {
            return people.named(name);
        }
    }

    /** Checks the caller's scope itself, where the service should. */
    static final class ProfileResource {
        long update(org.ziggurat.platform.token.Caller caller) {
            return caller.requireUserWithScope("user");
        }
    }

    /** Checks that the caller is another service itself, where the service should. */
    static final class InternalResource {
        Object verify(org.ziggurat.platform.token.Callers callers) {
            return callers.service();
        }
    }

    @Test
    void aResourceThatChecksRightsItselfIsCaught() {
        assertTrue(ModuleGraph.RESOURCES_CHECK_NO_RIGHTS.evaluate(new ClassFileImporter().importClasses(
                ProfileResource.class, org.ziggurat.platform.token.Caller.class)).hasViolation());
        assertTrue(ModuleGraph.RESOURCES_CHECK_NO_RIGHTS.evaluate(new ClassFileImporter().importClasses(
                InternalResource.class, org.ziggurat.platform.token.Callers.class)).hasViolation());
        assertFalse(ModuleGraph.RESOURCES_CHECK_NO_RIGHTS.evaluate(new ClassFileImporter().importClasses(
                OrganizationsResource.class, org.ziggurat.platform.token.Caller.class)).hasViolation());
    }

    @Test
    void aResourceThatReadsARepositoryIsCaught() {
        JavaClasses breaking = new ClassFileImporter().importClasses(PeopleResource.class, PeopleRepository.class);
        assertTrue(ModuleGraph.RESOURCES_USE_NO_REPOSITORY.evaluate(breaking).hasViolation());
        JavaClasses keeping = new ClassFileImporter().importClasses(OrganizationsResource.class, PeopleService.class,
                PeopleRepository.class);
        assertFalse(ModuleGraph.RESOURCES_USE_NO_REPOSITORY.evaluate(keeping).hasViolation());
    }
}
