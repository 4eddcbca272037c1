package org.ziggurat.directory.mail;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.Map;

/**
 * The mail that tells a person their account's security changed: what happened, from which
 * address, and what to do if it was not them. Plain text: nothing to render, nothing to track.
 */
@ApplicationScoped
public class SecurityNotices {

    /** A notice's subject and body. */
    public record Notice(String subject, String body) {
    }

    /** By account event kind (AccountEvents): what the mail says happened. */
    private static final Map<String, String> WHAT = Map.of(
            "totp_enabled", "An authenticator app was set up as a second factor for your account.",
            "totp_removed", "The authenticator app was removed from your account's second factors.",
            "recovery_codes_regenerated", "New recovery codes were made for your account; the old ones no longer work.",
            "recovery_code_used", "A recovery code was used to sign in to your account.",
            "passkey_added", "A passkey or security key was added to your account.",
            "passkey_removed", "A passkey or security key was removed from your account.",
            "password_reset", "Your password was changed with a recovery link, and you were signed out everywhere.",
            "password_changed", "Your password was changed on your account page, and your other sign-ins were ended.");

    private final MailSettings settings;

    SecurityNotices(MailSettings settings) {
        this.settings = settings;
    }

    /** Whether a change of this kind is mailed. */
    public boolean mails(String kind) {
        return WHAT.containsKey(kind);
    }

    public Notice notice(String kind, String username, String clientAddress) {
        String what = WHAT.get(kind);
        if (what == null) {
            throw new IllegalArgumentException("no notice for " + kind);
        }
        String from = clientAddress == null ? "" : " It was done from the address " + clientAddress + ".";
        return new Notice("Your account's security changed: " + what.substring(0, what.length() - 1).toLowerCase(),
                "Hello " + username + ",\n\n" + what + from + "\n\n"
                        + "If this was you, there is nothing to do.\n\n"
                        + "If it was not you, someone else may be signed in to your account: change your password now, "
                        + "then check your second factors and passkeys on your account's security page:\n\n"
                        + settings.accountUrl() + "/security" + "\n\n"
                        + "This mail was sent because of a change to your account; it cannot be turned off.\n");
    }
}
