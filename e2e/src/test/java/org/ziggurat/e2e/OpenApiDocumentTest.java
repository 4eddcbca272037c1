package org.ziggurat.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The API's description is committed ({@code api/openapi.json}): clients are generated from it
 * (the e2e module's own client among them), and a change of the API shows in review as a change
 * of that file. This test fails when the document the gateway serves differs from it.
 */
class OpenApiDocumentTest {

    static final Path COMMITTED = Path.of("..", "api", "openapi.json");
    /** The committed document names the API as `./ziggurat up` serves it. */
    static final String CANONICAL_BASE = "http://localhost:8080/api";

    @Test
    void theServedDocumentIsTheCommittedOne() throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode served = (ObjectNode) json.readTree(ContractCheck.document());
        assertFalse(served.has("x-unavailable-services"), "a service's document was missing: " + served.get("x-unavailable-services"));
        JsonNode canonical = canonical(served, Platform.api());
        Path candidate = Path.of("target", "openapi.json.committable");
        Files.createDirectories(candidate.getParent());
        Files.writeString(candidate, json.writerWithDefaultPrettyPrinter().writeValueAsString(canonical) + "\n");
        JsonNode committed = json.readTree(COMMITTED.toFile());
        assertTrue(committed.equals(canonical), "The API's description changed. Review e2e/" + candidate
                + " and, if the change is meant, copy it to api/openapi.json (cp e2e/" + candidate + " api/openapi.json).");
    }

    /** The served document with its servers named as the committed one names them. */
    static JsonNode canonical(ObjectNode served, String api) throws Exception {
        String text = new ObjectMapper().writeValueAsString(served).replace(api, CANONICAL_BASE);
        return new ObjectMapper().readTree(text);
    }
}
