package org.ziggurat.vocab.concepts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.problem.Problem;
import org.ziggurat.platform.problem.ProblemException;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The label rules of a concept and how a PATCH is laid over one, without Quarkus or the database. */
class ConceptInputTest {

    static final ObjectMapper JSON = new ObjectMapper();

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static List<String> fields(ProblemException e) {
        return e.errors().stream().map(Problem.FieldError::field).toList();
    }

    static final ObjectNode CURRENT = ConceptInput.asBody("Stable",
            List.of(new ConceptInput.Label("Preferred", "Babylon", "eng", false, "Undetermined", "Unknown")),
            List.of(new ConceptInput.Note("Scope", "The city.", "eng")), List.of("0a1b2c3d-4e5f-6a7b-8c9d"), List.of(), JSON);

    @Test
    void aConceptNeedsOnePreferredLabelPerLanguageAndNoLabelTwice() {
        ConceptInput ok = ConceptInput.parse(json("{'labels':[{'body':'Babylon','language':'en'},"
                + "{'type':'Preferred','body':'Bābil','language':'ar'},{'type':'Alternative','body':'Babel','language':'en'}]}"));
        assertEquals("Unstable", ok.status());
        assertEquals(List.of("eng", "ara", "eng"), ok.labels().stream().map(ConceptInput.Label::language).toList());

        ProblemException twice = assertThrows(ProblemException.class, () -> ConceptInput.parse(json(
                "{'labels':[{'body':'Babylon','language':'en'},{'body':'Babel','language':'eng'}]}")));
        assertEquals(422, twice.status());
        assertEquals(List.of("labels[1].type"), fields(twice));

        ProblemException sameBody = assertThrows(ProblemException.class, () -> ConceptInput.parse(json(
                "{'labels':[{'body':'Babylon','language':'en'},{'type':'Hidden','body':'Babylon','language':'en'}]}")));
        assertEquals(List.of("labels[1].body"), fields(sameBody));

        ProblemException none = assertThrows(ProblemException.class, () -> ConceptInput.parse(json(
                "{'labels':[{'type':'Alternative','body':'Babel','language':'en'}]}")));
        assertEquals(List.of("labels"), fields(none));
    }

    @Test
    void everyProblemOfABodyIsNamedAtOnce() {
        ProblemException e = assertThrows(ProblemException.class, () -> ConceptInput.parse(json(
                "{'status':'Done','labels':[{'body':'','language':'xx-nowhere'}],'broader':[7],"
                        + "'matches':[{'property':'exactMatch','url':'ftp://example.org/x'}]}")));
        assertEquals(List.of("status", "labels[0].body", "labels[0].language", "broader[0]", "matches[0].url"),
                fields(e));
    }

    @Test
    void aPatchReplacesTheFieldsItNamesWholeAndKeepsTheOthers() {
        ConceptInput patched = ConceptInput.patched(CURRENT, json("{'status':'Testing','broader':[],'id':'c-99'}"));
        assertEquals("Testing", patched.status());
        assertEquals(List.of(), patched.broader());
        assertEquals("Babylon", patched.labels().get(0).body());
        assertEquals("The city.", patched.notes().get(0).body());
        // The current concept is read, never changed.
        assertEquals("Stable", CURRENT.get("status").asText());
    }

    @Test
    void aPatchIsCheckedAsAWholeConcept() {
        ProblemException e = assertThrows(ProblemException.class,
                () -> ConceptInput.patched(CURRENT, json("{'labels':[{'type':'Hidden','body':'Babel','language':'en'}]}")));
        assertEquals(List.of("labels"), fields(e));
        assertEquals(400, assertThrows(ProblemException.class, () -> ConceptInput.patched(CURRENT, json("[1]"))).status());
    }
}
