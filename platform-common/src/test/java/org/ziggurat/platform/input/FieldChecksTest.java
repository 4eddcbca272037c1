package org.ziggurat.platform.input;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.problem.Problem;
import org.ziggurat.platform.problem.ProblemException;

import java.time.OffsetDateTime;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one input check and its messages, without Quarkus. */
class FieldChecksTest {

    static JsonNode json(String text) {
        try {
            return new ObjectMapper().readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aBodyOfFieldsIsAnObject() {
        assertEquals(400, assertThrows(ProblemException.class, () -> FieldChecks.object(json("[]"))).status());
        assertEquals(400, assertThrows(ProblemException.class, () -> FieldChecks.object(null)).status());
        JsonNode body = json("{}");
        assertEquals(body, FieldChecks.object(body));
    }

    @Test
    void everyProblemIsCollectedAndNamedAtOnce() {
        JsonNode body = json("{'title':'  A title ','abbr':'','name':'two\\nlines','open':'yes','kind':'Other','n':null}");
        FieldChecks checks = new FieldChecks();
        assertEquals("A title", checks.text(body.get("title"), "title", 10, true));
        assertNull(checks.text(body.get("abbr"), "abbr", 10, false));
        assertNull(checks.text(body.get("slug"), "slug", 10, true));
        assertNull(checks.text(body.get("n"), "n", 10, false));
        assertNull(checks.line(body.get("name"), "name", 100, true));
        assertNull(checks.bool(body.get("open"), "open"));
        assertNull(checks.oneOf(body.get("kind"), "kind", List.of("Fork", "FileUpload"), null));
        assertNull(checks.requiredOneOf(body.get("type"), "type", List.of("Scope", "Definition")));
        assertNull(checks.oneOf(body.get("visibility"), "visibility", List.of("public", "private"), null));
        assertEquals("Fork", checks.requiredOneOf(json("'Fork'"), "kind", List.of("Fork")));
        assertEquals("Scope", checks.oneOf(body.get("note"), "note", List.of("Scope", "Definition"), "Scope"));
        assertTrue(checks.failed());
        assertEquals(List.of(
                new Problem.FieldError("abbr", "must be 1 to 10 characters"),
                new Problem.FieldError("slug", "is required"),
                new Problem.FieldError("name", "must be 1 to 100 printable characters"),
                new Problem.FieldError("open", "must be true or false"),
                new Problem.FieldError("kind", "must be one of Fork, FileUpload"),
                new Problem.FieldError("type", "is required: one of Scope, Definition")), checks.errors());
        ProblemException e = assertThrows(ProblemException.class, () -> checks.throwIfFailed("The thing is not valid."));
        assertEquals(422, e.status());
        assertEquals("The thing is not valid.", e.detail());
        assertEquals(6, e.errors().size());
    }

    @Test
    void textIsAtMostItsLengthAndNeverBlank() {
        FieldChecks checks = new FieldChecks();
        assertEquals("abc", checks.text(json("'abc'"), "t", 3, true));
        assertEquals("Ādam", checks.line(json("' Ādam '"), "t", 10, true));
        assertFalse(checks.failed());
        assertNull(checks.text(json("'abcd'"), "t", 3, true));
        assertNull(checks.text(json("'   '"), "t", 3, true));
        assertNull(checks.text(json("3"), "t", 3, true));
        assertEquals(3, checks.errors().size());
        assertEquals(" id ", checks.string(json("' id '"), "s", 4, true));
        assertNull(checks.string(json("''"), "s", 4, true));
        assertNull(checks.string(json("'12345'"), "s", 4, true));
        assertNull(checks.string(null, "s", 4, true));
        assertEquals(List.of(new Problem.FieldError("s", "must be 1 to 4 characters"),
                new Problem.FieldError("s", "must be 1 to 4 characters"), new Problem.FieldError("s", "is required")),
                checks.errors().subList(3, 6));
        assertTrue(new FieldChecks().bool(json("true"), "b"));
        new FieldChecks().throwIfFailed("never thrown without a problem");
    }

    @Test
    void queryParametersAreRefusedAloneNamingTheParameter() {
        assertEquals(OffsetDateTime.parse("2026-01-18T11:03:26.395Z"),
                FieldChecks.timestamp("since", "2026-01-18T12:03:26.395+01:00"));
        assertNull(FieldChecks.timestamp("since", null));
        ProblemException since = assertThrows(ProblemException.class, () -> FieldChecks.timestamp("since", "yesterday"));
        assertEquals(400, since.status());
        assertEquals(List.of(new Problem.FieldError("since", "must be an ISO 8601 timestamp")), since.errors());

        assertTrue(FieldChecks.flag("synsets", "true"));
        assertFalse(FieldChecks.flag("synsets", "false"));
        assertFalse(FieldChecks.flag("synsets", null));
        assertEquals(List.of(new Problem.FieldError("synsets", "must be true or false")),
                assertThrows(ProblemException.class, () -> FieldChecks.flag("synsets", "1")).errors());

        assertEquals("Fork", FieldChecks.oneOf("kind", "Fork", List.of("FileUpload", "Fork")));
        assertNull(FieldChecks.oneOf("kind", null, List.of("FileUpload", "Fork")));
        ProblemException kind = assertThrows(ProblemException.class, () -> FieldChecks.oneOf("kind", "fork", List.of("FileUpload", "Fork")));
        assertEquals("kind must be one of FileUpload, Fork.", kind.detail());
    }
}
