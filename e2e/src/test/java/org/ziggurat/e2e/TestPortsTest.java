package org.ziggurat.e2e;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * `./ziggurat test` runs beside `./ziggurat up`, whose services hold 8080 to 8084 and 8090: every
 * module with a Quarkus test must have its tests listen on a free port (0), the HTTP server and,
 * where it has one, the management interface. Quarkus's own default for tests is 8081, which
 * the running auth-service holds.
 */
class TestPortsTest {

    static final Path ROOT = Path.of("..");
    /** The annotation on a line of its own (not {@code @QuarkusTestResource}, nor this pattern's text). */
    private static final Pattern QUARKUS_TEST = Pattern.compile("(?m)^\\s*@QuarkusTest\\s*$");

    @Test
    void everyModuleWithAQuarkusTestListensOnAFreePort() throws IOException {
        List<String> modules = modulesWithQuarkusTests();
        assertFalse(modules.isEmpty(), "no module with a Quarkus test found under " + ROOT.toAbsolutePath());
        List<String> fixed = new ArrayList<>();
        for (String module : modules) {
            Properties settings = testSettings(ROOT.resolve(module));
            if (!"0".equals(settings.getProperty("quarkus.http.test-port"))) {
                fixed.add(module + ": quarkus.http.test-port=" + settings.getProperty("quarkus.http.test-port", "(Quarkus's 8081)"));
            }
            if ("true".equals(settings.getProperty("quarkus.management.enabled"))
                    && !"0".equals(settings.getProperty("quarkus.management.test-port"))) {
                fixed.add(module + ": quarkus.management.test-port=" + settings.getProperty("quarkus.management.test-port",
                        "(Quarkus's 9001)"));
            }
        }
        assertEquals(List.of(), fixed, "tests on fixed ports, which a running stack may hold");
    }

    static List<String> modulesWithQuarkusTests() throws IOException {
        List<String> modules = new ArrayList<>();
        try (Stream<Path> children = Files.list(ROOT)) {
            for (Path module : children.filter(p -> Files.isDirectory(p.resolve("src/test/java"))).sorted().toList()) {
                try (Stream<Path> sources = Files.walk(module.resolve("src/test/java"))) {
                    if (sources.filter(p -> p.toString().endsWith(".java")).anyMatch(TestPortsTest::isQuarkusTest)) {
                        modules.add(module.getFileName().toString());
                    }
                }
            }
        }
        return modules;
    }

    private static boolean isQuarkusTest(Path source) {
        try {
            return QUARKUS_TEST.matcher(Files.readString(source)).find();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The module's settings as its tests see them: main's, then the test resources' over them. */
    static Properties testSettings(Path module) throws IOException {
        Properties settings = new Properties();
        for (Path file : List.of(module.resolve("src/main/resources/application.properties"),
                module.resolve("src/test/resources/application.properties"))) {
            if (Files.exists(file)) {
                try (Reader reader = Files.newBufferedReader(file)) {
                    Properties layer = new Properties();
                    layer.load(reader);
                    layer.forEach((key, value) -> settings.put(key.toString().replaceFirst("^%test\\.", ""), value));
                }
            }
        }
        return settings;
    }
}
