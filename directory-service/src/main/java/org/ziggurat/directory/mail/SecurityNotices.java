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
    private static final Map<String, String> WHAT = Map.ofEntries(
            Map.entry("totp_enabled", "An authenticator app was set up as a second factor for your account."),
            Map.entry("totp_removed", "The authenticator app was removed from your account's second factors."),
            Map.entry("recovery_codes_regenerated", "New recovery codes were made for your account; the old ones no longer work."),
            Map.entry("recovery_code_used", "A recovery code was used to sign in to your account."),
            Map.entry("passkey_added", "A passkey or security key was added to your account."),
            Map.entry("passkey_removed", "A passkey or security key was removed from your account."),
            Map.entry("password_reset", "Your password was changed with a recovery link, and you were signed out everywhere."),
            Map.entry("password_changed", "Your password was changed (on your account page, or by a script of yours), and your other sign-ins were ended."),
            Map.entry("identity_linked", "An account of another provider was linked to your account: it signs you in here from now on."),
            Map.entry("identity_unlinked", "An account of another provider was unlinked: it no longer signs you in here."),
            Map.entry("upstream_second_factor_off", "Your own second factor is no longer asked for after you sign in with another provider."),
            Map.entry("upstream_second_factor_on", "Your own second factor is asked for again after you sign in with another provider."),
            Map.entry("unproven_access_removed", "Every way into your account that was set up before its address was ever "
                    + "confirmed was removed with your new password: your recovery link is the first proof that the account is yours."));

    private final MailSettings settings;

    SecurityNotices(MailSettings settings) {
        this.settings = settings;
    }

    /** Whether a change of this kind is mailed. */
    public boolean mails(String kind) {
        return WHAT.containsKey(kind);
    }

    /** A sign-in from a device the account's security log had not seen. */
    public Notice newDevice(String username, String clientAddress, String device) {
        return new Notice("A sign-in to your account from a new device",
                "Hello " + username + ",\n\n"
                        + "Your account was just signed in to from a device it was not used from before"
                        + (device == null ? "" : ":\n\n    " + device + "\n")
                        + (clientAddress == null ? "" : "\nThe address was " + clientAddress + ".\n")
                        + "\nIf this was you, there is nothing to do.\n\n"
                        + "If it was not you, change your password now and sign out the sessions you do not know on "
                        + "your account's security page:\n\n" + settings.accountUrl() + "/security\n");
    }

    /** To the address a person had before: it no longer receives their account's mail. */
    public Notice emailChanged(String username, String newAddress, String clientAddress) {
        return new Notice("Your account's sign-in address was changed",
                "Hello " + username + ",\n\n"
                        + "The sign-in address of your account was changed from this address to " + newAddress + "."
                        + (clientAddress == null ? "" : " It was done from the address " + clientAddress + ".")
                        + " Mail about your account goes there from now on.\n\n"
                        + "If this was you, there is nothing to do.\n\n"
                        + "If it was not you, someone else is signed in to your account, and recovery mail now goes to "
                        + "the new address: ask the platform's operators for help at once, and if you can still sign in, "
                        + "change the address back and your password on your account page:\n\n"
                        + settings.accountUrl() + "\n");
    }

    /** The last mail of an account: what went, and what stays. */
    public Notice accountDeleted(String username, String address) {
        return new Notice("Your account was deleted",
                "Hello " + username + ",\n\n"
                        + "Your account " + username + " was deleted, as you asked: your profile, sign-ins, second factors, "
                        + "the applications you registered, and the vocabularies and data events of your namespace are gone "
                        + "or going within minutes. What you made in other people's and organizations' namespaces stays "
                        + "there, credited to no one. The name " + username + " will not be given to anyone else.\n\n"
                        + "If you did not ask for this, tell the platform's operators at once.\n");
    }

    public Notice notice(String kind, String username, String clientAddress) {
        return notice(kind, username, clientAddress, null);
    }

    /** {@code detail}: what the change names (a provider and the person's name there), or null. */
    public Notice notice(String kind, String username, String clientAddress, String detail) {
        String what = WHAT.get(kind);
        if (what == null) {
            throw new IllegalArgumentException("no notice for " + kind);
        }
        String from = clientAddress == null ? "" : " It was done from the address " + clientAddress + ".";
        String which = detail == null ? "" : "\n\n    " + detail.replaceAll("[\\r\\n]", " ");
        if ("password_reset".equals(kind)) {
            // Whoever knew the old password may have added a way in that the new one does not end.
            which += "\n\nLook at your second factors, passkeys and linked accounts now: remove any you do not "
                    + "recognise (" + settings.accountUrl() + "/security and " + settings.accountUrl() + "). Whoever "
                    + "added one could still sign in with it.";
        }
        return new Notice("Your account's security changed: " + what.substring(0, what.length() - 1).toLowerCase(),
                "Hello " + username + ",\n\n" + what + which + "\n\n" + from.strip() + (from.isEmpty() ? "" : "\n\n")
                        + "If this was you, there is nothing to do.\n\n"
                        + "If it was not you, someone else may be signed in to your account: change your password now, "
                        + "then check your second factors, passkeys and linked accounts on your account's pages:\n\n"
                        + settings.accountUrl() + "/security" + "\n\n"
                        + "This mail was sent because of a change to your account; it cannot be turned off.\n");
    }
}
