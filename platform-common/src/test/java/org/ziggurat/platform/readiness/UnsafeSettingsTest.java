package org.ziggurat.platform.readiness;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The settings a production start refuses, without Quarkus. */
class UnsafeSettingsTest {

    @Test
    void aPublicUrlIsHttpsUnlessOnLoopback() {
        UnsafeSettings settings = new UnsafeSettings(false);
        settings.publicUrl("a", "https://api.example.org/api");
        settings.publicUrl("b", "http://localhost:8080/api");
        settings.publicUrl("c", "http://127.0.0.1:8080/api");
        settings.publicUrl("d", "http://[::1]:8080/api");
        assertEquals(List.of(), settings.problems());

        settings.publicUrl("e", "http://api.example.org/api");
        settings.publicUrl("f", "http://10.1.2.3/api");
        settings.publicUrl("g", "/api");
        settings.publicUrl("h", "ftp://api.example.org/");
        settings.publicUrl("i", "http://exa mple.org/");
        List<String> problems = settings.problems();
        assertEquals(5, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("e is plain HTTP"), problems.get(0));
        assertTrue(problems.get(0).contains(UnsafeSettings.ALLOW_PLAIN_HTTP));
        assertTrue(problems.get(2).startsWith("g must be an absolute https URL"));
    }

    @Test
    void plainHttpOutsideLoopbackOnlyWhenAllowed() {
        UnsafeSettings settings = new UnsafeSettings(true);
        settings.publicUrl("a", "http://ziggurat.localtest.me/api");
        assertEquals(List.of(), settings.problems());
        settings.publicUrl("b", "ziggurat.localtest.me/api");
        assertEquals(1, settings.problems().size());
    }

    @Test
    void aSecretIsLongAndNotPublished() {
        UnsafeSettings settings = new UnsafeSettings(false);
        Set<String> published = Set.of("dev-secret-0123456789abcdef0123456789");
        settings.secret("ok", Optional.of("x".repeat(32)), 32, published);
        assertEquals(List.of(), settings.problems());
        settings.secret("missing", Optional.empty(), 32, published);
        settings.secret("blank", Optional.of("  "), 32, published);
        settings.secret("short", Optional.of("x".repeat(31)), 32, published);
        settings.secret("published", Optional.of("dev-secret-0123456789abcdef0123456789"), 32, published);
        List<String> problems = settings.problems();
        assertEquals(List.of("missing is not set", "blank is not set", "short must be at least 32 characters"),
                problems.subList(0, 3));
        assertTrue(problems.get(3).startsWith("published is a value published with the code"));
    }

    @Test
    void theValuesOfEveryProfileShippedWithTheCodeArePublished() {
        Set<String> published = UnsafeSettings.publishedValues("ziggurat.probe.secret");
        assertEquals(Set.of("dev-probe-secret", "test-probe-secret"), published);
        assertEquals(Set.of(), UnsafeSettings.publishedValues("probe.secret"));
    }

    @Test
    void filesMustBeReadable(@TempDir Path dir) throws Exception {
        Path key = Files.writeString(dir.resolve("key.pem"), "key");
        UnsafeSettings settings = new UnsafeSettings(false);
        settings.readableFile("path", Optional.of(key.toString()));
        settings.readableFile("url", Optional.of("file:" + key));
        assertEquals(List.of(), settings.problems());
        settings.readableFile("missing", Optional.of(dir.resolve("none.pem").toString()));
        settings.readableFile("unset", Optional.empty());
        assertEquals(2, settings.problems().size());
    }

    @Test
    void everyProblemIsSaidInOneRefusal() {
        UnsafeSettings settings = new UnsafeSettings(false);
        settings.requireNone("nothing wrong");
        settings.add("one");
        settings.add("two");
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> settings.requireNone("probe"));
        assertEquals("probe's settings are not safe to run with: one; two", refused.getMessage());
        assertFalse(UnsafeSettings.loopback("example.org"));
        assertTrue(UnsafeSettings.loopback("api.localhost"));
    }
}
