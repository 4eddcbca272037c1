package org.ziggurat.auth.oauth;

import java.util.List;

/**
 * How a person signed in, as ID tokens say it: {@code amr} method references (RFC 8176) and an
 * {@code acr} class, REFEDS's assurance profiles, which research federations use: single-factor
 * for a password, multi-factor after a second factor.
 */
public final class AuthenticationMethods {

    public static final String PASSWORD = "pwd";
    public static final String ONE_TIME_PASSWORD = "otp";
    public static final String MULTIPLE_FACTORS = "mfa";
    /** A passkey bound to its device, and one that may be synced (its backup-eligible flag): RFC 8176's hwk and swk. */
    public static final String HARDWARE_KEY = "hwk";
    public static final String SOFTWARE_KEY = "swk";

    public static final String ACR_SINGLE_FACTOR = "https://refeds.org/profile/sfa";
    public static final String ACR_MULTI_FACTOR = "https://refeds.org/profile/mfa";

    /** What a password alone is. */
    public static final List<String> PASSWORD_ONLY = List.of(PASSWORD);
    /** A password and a one-time code (TOTP, or a recovery code, which is one too). */
    public static final List<String> PASSWORD_AND_CODE = List.of(PASSWORD, ONE_TIME_PASSWORD, MULTIPLE_FACTORS);

    private AuthenticationMethods() {
    }

    /** A passkey with user verification, alone: something one has and something one is or knows. */
    public static List<String> passkey(boolean synced) {
        return List.of(synced ? SOFTWARE_KEY : HARDWARE_KEY, MULTIPLE_FACTORS);
    }

    /** The password, then a passkey as the second factor. */
    public static List<String> passwordAndPasskey(boolean synced) {
        return List.of(PASSWORD, synced ? SOFTWARE_KEY : HARDWARE_KEY, MULTIPLE_FACTORS);
    }

    /**
     * The methods of a sign-in whose first factor was another provider's ({@code firstAmr}, null:
     * the password) and whose second was ours ({@code secondAmr}, which begins with the password's
     * pwd): the provider's methods, then the second factor's, and mfa.
     */
    public static List<String> after(List<String> firstAmr, List<String> secondAmr) {
        if (firstAmr == null) {
            return secondAmr;
        }
        java.util.LinkedHashSet<String> methods = new java.util.LinkedHashSet<>(firstAmr);
        secondAmr.stream().filter(method -> !PASSWORD.equals(method)).forEach(methods::add);
        methods.add(MULTIPLE_FACTORS);
        return List.copyOf(methods);
    }

    /** The class of a sign-in by these methods. */
    public static String acr(List<String> amr) {
        return amr.contains(MULTIPLE_FACTORS) ? ACR_MULTI_FACTOR : ACR_SINGLE_FACTOR;
    }

    /** Whether the space-delimited acr_values ask for more than a sign-in by these methods is. */
    public static boolean asksForMore(String acrValues, List<String> amr) {
        if (acrValues == null || amr.contains(MULTIPLE_FACTORS)) {
            return false;
        }
        return List.of(acrValues.trim().split(" +")).contains(ACR_MULTI_FACTOR);
    }
}
