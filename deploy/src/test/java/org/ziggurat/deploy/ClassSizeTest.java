package org.ziggurat.deploy;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * No class of the services' own code over 250 lines (the second renovation's rule): a class that
 * grows past it holds two concerns, and the next reader pays for it. Generated code and tests
 * are not counted.
 */
class ClassSizeTest {

    static final int MOST_LINES = 250;

    @Test
    void noMainClassIsLongerThan250Lines() throws IOException {
        List<String> over;
        try (Stream<Path> modules = Files.list(ManifestsTest.ROOT)) {
            over = modules.map(module -> module.resolve("src/main/java")).filter(Files::isDirectory)
                    .flatMap(ClassSizeTest::javaFiles)
                    .filter(file -> lines(file) > MOST_LINES)
                    .map(file -> ManifestsTest.ROOT.relativize(file) + " (" + lines(file) + " lines)")
                    .sorted().toList();
        }
        assertEquals(List.of(), over, "classes over " + MOST_LINES + " lines");
    }

    private static Stream<Path> javaFiles(Path root) {
        try {
            return Files.walk(root).filter(file -> file.toString().endsWith(".java")).toList().stream();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long lines(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
