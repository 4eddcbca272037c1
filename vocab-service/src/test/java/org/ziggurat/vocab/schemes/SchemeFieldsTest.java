package org.ziggurat.vocab.schemes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.problem.Problem;
import org.ziggurat.platform.problem.ProblemException;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A scheme's fields as created and as changed, without Quarkus or the database. */
class SchemeFieldsTest {

    static JsonNode json(String text) {
        try {
            return new ObjectMapper().readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static List<String> fields(ProblemException e) {
        return e.errors().stream().map(Problem.FieldError::field).toList();
    }

    @Test
    void creatingNeedsASlugAndATitle() {
        SchemeFields f = SchemeFields.parse(json("{'slug':'places','title':'  Places ','default_language':'en'}"), true);
        assertEquals("places", f.slug());
        assertEquals("Places", f.title());
        assertEquals("eng", f.language());
        assertNull(f.abbr());
        ProblemException e = assertThrows(ProblemException.class, () -> SchemeFields.parse(json("{}"), true));
        assertEquals(422, e.status());
        assertEquals(List.of("slug", "title"), fields(e));
    }

    @Test
    void aSlugIsLowerCaseLettersDigitsAndDashes() {
        ProblemException e = assertThrows(ProblemException.class,
                () -> SchemeFields.parse(json("{'slug':'Places','title':'P'}"), true));
        assertEquals(List.of("slug"), fields(e));
        assertEquals("p-1", SchemeFields.parse(json("{'slug':'p-1','title':'P'}"), true).slug());
    }

    @Test
    void changingTakesNoSlugAndNamesEveryProblemAtOnce() {
        assertEquals("New", SchemeFields.parse(json("{'title':'New'}"), false).title());
        ProblemException e = assertThrows(ProblemException.class, () -> SchemeFields.parse(json(
                "{'slug':'x','abbr':'','definition':5,'default_language':'nowhere'}"), false));
        assertEquals(List.of("slug", "abbr", "definition", "default_language"), fields(e));
        assertEquals(400, assertThrows(ProblemException.class, () -> SchemeFields.parse(json("[]"), false)).status());
    }
}
