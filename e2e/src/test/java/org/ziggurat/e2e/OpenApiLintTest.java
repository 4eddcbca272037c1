package org.ziggurat.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The merged OpenAPI document, as the gateway serves it, linted with Redocly CLI's recommended
 * rules ({@code e2e/redocly/redocly.yaml}): no error, and no warning but those listed with their
 * reasons in {@code e2e/redocly/.redocly.lint-ignore.yaml}. Redocly CLI is installed by
 * {@code ./ziggurat test} ({@code npm ci --prefix e2e/redocly}).
 */
class OpenApiLintTest {

    static final Path TOOL = Path.of("redocly", "node_modules", ".bin", "redocly");

    @Test
    void theDocumentPassesTheRecommendedRules() throws Exception {
        assertTrue(Files.isExecutable(TOOL), "Redocly CLI is not installed: npm ci --prefix e2e/redocly (./ziggurat test does it)");
        Path document = Path.of("target", "openapi.json");
        Files.createDirectories(document.getParent());
        Files.writeString(document, ContractCheck.document());
        Process lint = new ProcessBuilder(TOOL.toAbsolutePath().toString(), "lint", "../target/openapi.json",
                "--config", "redocly.yaml", "--format=json").directory(Path.of("redocly").toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(lint.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(lint.waitFor(120, TimeUnit.SECONDS), "redocly lint did not finish");
        JsonNode report = new ObjectMapper().readTree(out.substring(out.indexOf('{')));
        JsonNode totals = report.path("totals");
        System.out.printf("Redocly lint of the merged OpenAPI document: %d errors, %d warnings, %d listed with a reason%n",
                totals.path("errors").asInt(), totals.path("warnings").asInt(), totals.path("ignored").asInt());
        String problems = report.path("problems").toPrettyString();
        assertEquals(0, totals.path("errors").asInt(-1), "lint errors:\n" + problems);
        assertEquals(0, totals.path("warnings").asInt(-1), "lint warnings not listed in .redocly.lint-ignore.yaml:\n" + problems);
    }
}
