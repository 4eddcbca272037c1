package org.ziggurat.directory.factors;

/** The kinds of {@link AccountEvent}, as stored and as the account page names them. */
public final class AccountEvents {

    public static final String TOTP_ENABLED = "totp_enabled";
    public static final String TOTP_REMOVED = "totp_removed";
    public static final String RECOVERY_CODES_REGENERATED = "recovery_codes_regenerated";
    public static final String RECOVERY_CODE_USED = "recovery_code_used";
    public static final String PASSKEY_ADDED = "passkey_added";
    public static final String PASSKEY_REMOVED = "passkey_removed";
    /** A new password set with a recovery link ("Forgot your password?"). */
    public static final String PASSWORD_RESET = "password_reset";
    /** A new password set on the account page, after the current one. */
    public static final String PASSWORD_CHANGED = "password_changed";

    /** A sign-in on the sign-in pages, completed (second factor included). */
    public static final String SIGN_IN = "sign_in";
    /** A wrong password for the account. */
    public static final String SIGN_IN_FAILED = "sign_in_failed";
    /** A wrong second-factor code or recovery code after the right password. */
    public static final String SECOND_FACTOR_FAILED = "second_factor_failed";
    /** The sign-in address changed; detail: the new address. */
    public static final String EMAIL_CHANGED = "email_changed";
    /** The sign-in address proven with its mailed link. */
    public static final String EMAIL_VERIFIED = "email_verified";
    /** An application given access on the consent page; detail: its name. */
    public static final String APPLICATION_AUTHORIZED = "application_authorized";
    /** An application's access taken away on the account page; detail: its name. */
    public static final String APPLICATION_REVOKED = "application_revoked";

    /** An identity of another provider linked to the account; detail: the provider and its name for the person. */
    public static final String IDENTITY_LINKED = "identity_linked";
    /** A linked identity removed; detail: the provider and its name for the person. */
    public static final String IDENTITY_UNLINKED = "identity_unlinked";
    /** The person's own second factor is asked for again after another provider's sign-in. */
    public static final String UPSTREAM_SECOND_FACTOR_ON = "upstream_second_factor_on";
    /** The person's own second factor is no longer asked for after another provider's sign-in. */
    public static final String UPSTREAM_SECOND_FACTOR_OFF = "upstream_second_factor_off";

    /**
     * The first recovery link of an account whose owner had never proven an address of it removed
     * every way in that predated it; detail: what went.
     */
    public static final String UNPROVEN_ACCESS_REMOVED = org.ziggurat.directory.people.PasswordRepository.UNPROVEN_ACCESS_REMOVED;

    /** What other services may record (auth-service's pages); the rest the directory records itself. */
    public static final java.util.Set<String> RECORDED_BY_SERVICES = java.util.Set.of(SIGN_IN, APPLICATION_AUTHORIZED,
            APPLICATION_REVOKED);

    private AccountEvents() {
    }
}
