package org.ziggurat.platform.rest;

import org.junit.jupiter.api.Test;
import org.ziggurat.platform.rest.problem.ProblemMappers;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * platform-rest's classes live under its own root, in packages no other jar also holds (a split
 * package: platform-common's {@code problem} beside platform-rest's, as it once was, leaves
 * package-private access and the module system to chance). Plain JUnit: reads the classpath.
 */
class OwnPackagesTest {

    @Test
    void noPackageOfPlatformRestIsAlsoAnotherJars() throws Exception {
        Path classes = Path.of(ProblemMappers.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Set<String> packages = new TreeSet<>();
        try (var walk = Files.walk(classes)) {
            walk.filter(p -> p.toString().endsWith(".class"))
                    .forEach(p -> packages.add(classes.relativize(p.getParent()).toString().replace('\\', '/')));
        }
        assertTrue(packages.contains("org/ziggurat/platform/rest/problem"), "read the main classes: " + packages);
        // This module's own tests share its packages, as tests do.
        String tests = OwnPackagesTest.class.getProtectionDomain().getCodeSource().getLocation().toString();
        for (String pkg : packages) {
            assertTrue(pkg.startsWith("org/ziggurat/platform/rest"), pkg + " is outside platform-rest's root");
            List<URL> holders = Collections.list(getClass().getClassLoader().getResources(pkg)).stream()
                    .filter(url -> !url.toString().startsWith(tests)).toList();
            assertEquals(1, holders.size(), pkg + " is held by more than one location: " + holders);
        }
    }
}
