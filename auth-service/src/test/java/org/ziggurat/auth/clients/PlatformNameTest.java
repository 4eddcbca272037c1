package org.ziggurat.auth.clients;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What reads as the platform's name: case, spaces, punctuation and look-alike letters aside. */
class PlatformNameTest {

    final PlatformName ziggurat = new PlatformName("Ziggurat", Set.of(990L));

    @Test
    void namesThatReadAsThePlatformsAreCaught() {
        for (String name : List.of("Ziggurat", "ZIGGURAT", "ziggurat cli", "Zig gurat", "Z.i.g.g.u.r.a.t",
                "\u0396iggurat" /* Greek capital Zeta */, "Ziggur\u0430t" /* Cyrillic a */, "\u2124iggurat" /* double-struck Z */,
                "Z1ggurat", "Zlggurat", "\uff3a\uff49\uff47\uff47\uff55\uff52\uff41\uff54" /* full width */, "My Ziggurat helper")) {
            assertTrue(ziggurat.imitatedBy(name), name);
        }
    }

    @Test
    void otherNamesAreFree() {
        for (String name : List.of("Zigzag", "Lab CLI", "Ziggy's notebook", "Gurat", "Notebook hub", "")) {
            assertFalse(ziggurat.imitatedBy(name), name);
        }
        assertFalse(ziggurat.imitatedBy(null));
    }

    @Test
    void operatorsAreTheConfiguredPeople() {
        assertTrue(ziggurat.isOperator(990));
        assertFalse(ziggurat.isOperator(991));
        assertFalse(new PlatformName("Ziggurat", Set.of()).isOperator(990));
    }
}
