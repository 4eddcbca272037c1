package org.ziggurat.auth.oauth;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How a sign-in is named (RFC 8176, REFEDS), and when acr_values asks for more than it was. */
class AuthenticationMethodsTest {

    static final String MFA = "https://refeds.org/profile/mfa";
    static final String SFA = "https://refeds.org/profile/sfa";

    @Test
    void aSecondFactorMakesItMultiFactor() {
        assertEquals(SFA, AuthenticationMethods.acr(AuthenticationMethods.PASSWORD_ONLY));
        assertEquals(MFA, AuthenticationMethods.acr(AuthenticationMethods.PASSWORD_AND_CODE));
        assertEquals(java.util.List.of("pwd", "otp", "mfa"), AuthenticationMethods.PASSWORD_AND_CODE);
    }

    @Test
    void acrValuesAskForMoreOnlyWhenMfaIsAskedAndNotHad() {
        assertTrue(AuthenticationMethods.asksForMore(MFA, AuthenticationMethods.PASSWORD_ONLY));
        assertTrue(AuthenticationMethods.asksForMore("  urn:other " + MFA, AuthenticationMethods.PASSWORD_ONLY));
        assertFalse(AuthenticationMethods.asksForMore(MFA, AuthenticationMethods.PASSWORD_AND_CODE));
        assertFalse(AuthenticationMethods.asksForMore(SFA, AuthenticationMethods.PASSWORD_ONLY));
        assertFalse(AuthenticationMethods.asksForMore(null, AuthenticationMethods.PASSWORD_ONLY));
        assertFalse(AuthenticationMethods.asksForMore(MFA + "x", AuthenticationMethods.PASSWORD_ONLY), "whole values only");
    }

    @Test
    void aProvidersMethodsComeFirstThenOurSecondFactorAndMfa() {
        assertEquals(AuthenticationMethods.PASSWORD_AND_CODE,
                AuthenticationMethods.after(null, AuthenticationMethods.PASSWORD_AND_CODE), "after the password: as it was");
        assertEquals(java.util.List.of("hwk", "otp", "mfa"),
                AuthenticationMethods.after(java.util.List.of("hwk"), AuthenticationMethods.PASSWORD_AND_CODE));
        assertEquals(java.util.List.of("swk", "mfa"),
                AuthenticationMethods.after(java.util.List.of(), AuthenticationMethods.passwordAndPasskey(true)));
        assertEquals(java.util.List.of("pwd", "otp", "mfa"),
                AuthenticationMethods.after(java.util.List.of("pwd"), AuthenticationMethods.PASSWORD_AND_CODE));
    }
}
