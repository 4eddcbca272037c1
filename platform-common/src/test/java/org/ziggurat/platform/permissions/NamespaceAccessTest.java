package org.ziggurat.platform.permissions;

import org.junit.jupiter.api.Test;
import org.ziggurat.platform.permissions.NamespaceAccess.Withheld;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.problem.StepUpRequired;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
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
        assertDoesNotThrow(() -> NamespaceAccess.requireRead("lab", true, Withheld.UNTIL_SECOND_FACTOR));
        ProblemException read = assertThrows(ProblemException.class,
                () -> NamespaceAccess.requireRead("lab", false, Withheld.UNTIL_SECOND_FACTOR));
        assertEquals(403, read.status(), "a member learns nothing new by it: not a 404");
        assertEquals("Second Factor Required", read.title());
        assertTrue(read.detail().contains("/account/security"), read.detail());
        assertFalse(read instanceof StepUpRequired, "setting one up is not a sign-in away");
        ProblemException write = assertThrows(ProblemException.class,
                () -> NamespaceAccess.requireWrite("lab", false, Withheld.UNTIL_SECOND_FACTOR));
        assertEquals("Second Factor Required", write.title());
        assertEquals("Forbidden", assertThrows(ProblemException.class,
                () -> NamespaceAccess.requireWrite("lab", false, Withheld.NOTHING)).title());
    }

    @Test
    void aMemberWhoSignedInWithoutTheirSecondFactorIsAskedToSignInWithIt() {
        assertDoesNotThrow(() -> NamespaceAccess.requireWrite("lab", true, Withheld.UNTIL_SIGN_IN_WITH_SECOND_FACTOR));
        for (ProblemException refused : List.of(
                assertThrows(ProblemException.class,
                        () -> NamespaceAccess.requireRead("lab", false, Withheld.UNTIL_SIGN_IN_WITH_SECOND_FACTOR)),
                assertThrows(ProblemException.class,
                        () -> NamespaceAccess.requireWrite("lab", false, Withheld.UNTIL_SIGN_IN_WITH_SECOND_FACTOR)))) {
            assertEquals(401, refused.status(), "RFC 9470: the token's sign-in, not the person, falls short");
            StepUpRequired stepUp = assertInstanceOf(StepUpRequired.class, refused);
            assertEquals("https://refeds.org/profile/mfa", stepUp.acrValues());
            assertTrue(stepUp.challenge().startsWith("Bearer error=\"insufficient_user_authentication\", "),
                    stepUp.challenge());
            assertTrue(stepUp.challenge().endsWith(", acr_values=\"https://refeds.org/profile/mfa\""), stepUp.challenge());
        }
    }

    @Test
    void whyRightsAreWithheldComesFromTheDirectorysTwoAnswers() {
        assertEquals(Withheld.NOTHING, Withheld.of(false, false));
        assertEquals(Withheld.UNTIL_SECOND_FACTOR, Withheld.of(true, false));
        assertEquals(Withheld.UNTIL_SIGN_IN_WITH_SECOND_FACTOR, Withheld.of(false, true));
        assertEquals(Withheld.UNTIL_SECOND_FACTOR, Withheld.of(true, true), "setting one up comes first");
    }
}
