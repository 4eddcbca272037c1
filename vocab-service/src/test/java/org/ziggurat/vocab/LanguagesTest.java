package org.ziggurat.vocab;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LanguagesTest {

    @Test
    void acceptsTwoLettersThreeLettersAndTheFullForm() {
        assertEquals(Optional.of("eng"), Languages.parse("en"));
        assertEquals(Optional.of("eng"), Languages.parse("eng"));
        assertEquals(Optional.of("eng"), Languages.parse("eng (en) - English"));
        assertEquals(Optional.of("ell"), Languages.parse("el"));
        assertEquals(Optional.of("fra"), Languages.parse("FR"));
        assertEquals(Optional.empty(), Languages.parse("xx"));
        assertEquals(Optional.empty(), Languages.parse("klingon"));
        assertEquals(Optional.empty(), Languages.parse(null));
        assertEquals(Optional.of("grc"), Languages.parse("grc"));
        assertEquals(Optional.of("grc"), Languages.parse("grc - Ancient Greek"));
        assertEquals(Optional.empty(), Languages.parse("zzq"));
    }

    @Test
    void showsTheSpecForm() {
        assertEquals("eng (en) - English", Languages.display("eng"));
        assertEquals("deu (de) - German", Languages.display("deu"));
        assertEquals("grc - Ancient Greek", Languages.display("grc"));
    }
}
