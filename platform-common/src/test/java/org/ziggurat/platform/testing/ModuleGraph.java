package org.ziggurat.platform.testing;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.domain.properties.HasOwner;
import com.tngtech.archunit.lang.ArchRule;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.Callers;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The module graph inside a service, read from its compiled classes (ArchUnit): each package
 * under the service's root uses only the packages it is allowed to, the packages have no cycle,
 * and no repository speaks HTTP. A service's {@code ArchitectureTest} states its graph and calls
 * these; they start no Quarkus.
 */
public final class ModuleGraph {

    /** The root package itself (a service's configuration and application classes). */
    public static final String ROOT = "(root)";

    private static final Map<String, ModuleGraph> LOADED = new ConcurrentHashMap<>();

    private final String root;
    private final JavaClasses classes;

    private ModuleGraph(String root, JavaClasses classes) {
        this.root = root;
        this.classes = classes;
    }

    /** The main classes (not the tests) under a root package, read once per test run. */
    public static ModuleGraph of(String root) {
        return LOADED.computeIfAbsent(root, r -> new ModuleGraph(r, new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages(r)));
    }

    public JavaClasses classes() {
        return classes;
    }

    /**
     * Every dependency between the root's packages (the first segment under the root; {@link #ROOT}
     * for the root itself) is one {@code mayUse} allows; every package has an entry.
     */
    public void usesOnly(Map<String, Set<String>> mayUse) {
        List<String> violations = new ArrayList<>();
        Set<String> unplaced = new TreeSet<>();
        for (JavaClass type : classes) {
            String from = packageOf(type);
            if (!mayUse.containsKey(from)) {
                unplaced.add(from);
                continue;
            }
            for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass();
                if (!target.getPackageName().equals(root) && !target.getPackageName().startsWith(root + ".")) {
                    continue;
                }
                String to = packageOf(target);
                if (!to.equals(from) && !mayUse.get(from).contains(to)) {
                    violations.add(from + " → " + to + ": " + dependency.getDescription());
                }
            }
        }
        assertEquals(Set.of(), unplaced, "packages with no place in the graph");
        assertEquals(List.of(), violations.stream().distinct().sorted().toList(), "dependencies the graph does not allow");
    }

    public void hasNoCycles() {
        slices().matching(root + ".(*)..").should().beFreeOfCycles().check(classes);
    }

    /** Repositories read and write rows; what an answer looks like is their callers' business. */
    public void repositoriesSpeakNoHttp(String... moreForbiddenPackages) {
        List<String> forbidden = new ArrayList<>(List.of("jakarta.ws.rs..", "org.jboss.resteasy..",
                "org.ziggurat.platform.problem.."));
        forbidden.addAll(List.of(moreForbiddenPackages));
        noClasses().that().haveSimpleNameEndingWith("Repository")
                .should().dependOnClassesThat(resideInAnyPackage(forbidden.toArray(String[]::new)))
                .because("a repository reads and writes rows; what an answer looks like is its callers' business")
                .check(classes);
    }

    /**
     * The HTTP layer (a JAX-RS resource: annotated {@code @Path}, or named {@code *Resource}) reaches
     * the rows through a service, never a repository: the service is where rights are checked and
     * transactions begin.
     */
    public static final ArchRule RESOURCES_USE_NO_REPOSITORY = noClasses()
            .that().areAnnotatedWith("jakarta.ws.rs.Path").or().haveSimpleNameEndingWith("Resource")
            .should().dependOnClassesThat().haveSimpleNameEndingWith("Repository")
            .because("a resource reads requests and writes answers; the service between it and the rows checks rights");

    public void resourcesUseNoRepository() {
        RESOURCES_USE_NO_REPOSITORY.check(classes);
    }

    /**
     * A caller's rights (who calls, with which scope, a person or another service) are checked in
     * the service layer, as its first line: a resource never asks the caller to prove them
     * ({@code Caller.require*}, {@code Callers.service()}).
     */
    public static final ArchRule RESOURCES_CHECK_NO_RIGHTS = noClasses()
            .that().areAnnotatedWith("jakarta.ws.rs.Path").or().haveSimpleNameEndingWith("Resource")
            .should().callMethodWhere(JavaCall.Predicates.target(HasOwner.Predicates.With.<JavaClass>owner(
                    JavaClass.Predicates.type(Caller.class))).and(JavaCall.Predicates.target(
                    HasName.Predicates.nameStartingWith("require"))))
            .orShould().callMethodWhere(JavaCall.Predicates.target(HasOwner.Predicates.With.<JavaClass>owner(
                    JavaClass.Predicates.type(Callers.class))).and(JavaCall.Predicates.target(
                    HasName.Predicates.name("service"))))
            .because("rights are checked in one layer, the services'");

    public void resourcesCheckNoRights() {
        RESOURCES_CHECK_NO_RIGHTS.check(classes);
    }

    /** What opens a transaction: any pool's {@code withTransaction}, Panache's, or a connection's {@code begin}. */
    private static final DescribedPredicate<JavaCall<?>> OPENS_A_TRANSACTION = DescribedPredicate.describe(
            "opens a transaction", call -> {
                String owner = call.getTargetOwner().getSimpleName();
                return call.getName().equals("withTransaction") && (owner.endsWith("Pool") || owner.equals("Panache"))
                        || call.getName().equals("begin") && owner.equals("SqlConnection");
            });

    /**
     * A transaction is opened in one place of a service, its repositories, each a unit of work
     * with a name; what runs inside one on behalf of a service (a grant's checks, an import's
     * bookkeeping) is handed to the repository that opens it.
     */
    public static final ArchRule ONLY_REPOSITORIES_OPEN_TRANSACTIONS = noClasses()
            .that().haveSimpleNameNotEndingWith("Repository")
            .should().callMethodWhere(OPENS_A_TRANSACTION)
            .because("a service's transactions begin in one layer, the repositories'");

    public void onlyRepositoriesOpenTransactions() {
        ONLY_REPOSITORIES_OPEN_TRANSACTIONS.check(classes);
    }

    private String packageOf(JavaClass type) {
        String name = type.getPackageName();
        if (name.equals(root)) {
            return ROOT;
        }
        String rest = name.substring(root.length() + 1);
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }
}
