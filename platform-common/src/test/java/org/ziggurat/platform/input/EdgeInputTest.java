package org.ziggurat.platform.input;

import org.junit.jupiter.api.Test;
import org.ziggurat.platform.problem.ProblemException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class EdgeInputTest {

    @Test
    void aReadBodyGivesItsFields() {
        assertEquals("ada", EdgeInput.read(() -> "ada").get());
    }

    @Test
    void aRefusedBodyIsRefusedOnlyWhenTheFieldsAreAskedFor() {
        ProblemException refusal = ProblemException.invalidField("name", "is required");
        EdgeInput<String> input = EdgeInput.read(() -> {
            throw refusal;
        });
        assertSame(refusal, assertThrows(ProblemException.class, input::get));
    }

    @Test
    void otherFailuresOfTheReaderAreNotKept() {
        assertThrows(IllegalStateException.class, () -> EdgeInput.read(() -> {
            throw new IllegalStateException("a bug, not a body's problem");
        }));
    }
}
