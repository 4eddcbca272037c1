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

    @Test
    void aMemberWhoseRightsWaitForASecondFactorIsToldSo() {
        assertDoesNotThrow(() -> NamespaceAccess.requireRead("lab", true, true));
        ProblemException read = assertThrows(ProblemException.class, () -> NamespaceAccess.requireRead("lab", false, true));
        assertEquals(403, read.status(), "a member learns nothing new by it: not a 404");
        assertEquals("Second Factor Required", read.title());
        org.junit.jupiter.api.Assertions.assertTrue(read.detail().contains("/account/security"), read.detail());
        ProblemException write = assertThrows(ProblemException.class, () -> NamespaceAccess.requireWrite("lab", false, true));
        assertEquals("Second Factor Required", write.title());
        assertEquals("Forbidden", assertThrows(ProblemException.class,
                () -> NamespaceAccess.requireWrite("lab", false, false)).title());
    }
}
