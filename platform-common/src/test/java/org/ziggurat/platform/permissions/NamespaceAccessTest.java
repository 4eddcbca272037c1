package org.ziggurat.platform.permissions;

import org.junit.jupiter.api.Test;
import org.ziggurat.platform.problem.ProblemException;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Who may read and write in a namespace, without HTTP or the directory. */
class NamespaceAccessTest {

    @Test
    void aNamespaceOneMayNotReadDoesNotExistForOne() {
        assertDoesNotThrow(() -> NamespaceAccess.requireRead("Lab", true));
        ProblemException hidden = assertThrows(ProblemException.class, () -> NamespaceAccess.requireRead("Lab", false));
        assertEquals(404, hidden.status());
        assertEquals("No namespace is called 'Lab'.", hidden.detail());
    }

    @Test
    void writingWithoutWriteRightsIsForbidden() {
        assertDoesNotThrow(() -> NamespaceAccess.requireWrite("lab", true));
        assertEquals(403, assertThrows(ProblemException.class, () -> NamespaceAccess.requireWrite("lab", false)).status());
    }
}
