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

    private AccountEvents() {
    }
}
