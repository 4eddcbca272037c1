package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.directory.client.DirectoryClient;

import java.util.HashMap;
import java.util.Map;

/**
 * The account page's profile: the name shown, whether the (verified) sign-in address is public,
 * the sign-in address itself (after the password again, "sudo mode", as the password change), and
 * a new link to prove it. The directory keeps all of it and mails what a change needs.
 */
@ApplicationScoped
public class AccountDetails {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final DirectoryClient directory;
    private final AccountSecurity security;
    private final org.ziggurat.auth.people.AuthPersonData personData;

    AccountDetails(@RestClient DirectoryClient directory, AccountSecurity security,
            org.ziggurat.auth.people.AuthPersonData personData) {
        this.directory = directory;
        this.security = security;
        this.personData = personData;
    }

    /**
     * Everything the platform holds about the person, as one JSON document, after the password
     * again: {@link AccountSecurity.SudoRefused}; a service that cannot give its part fails it whole.
     */
    public Uni<String> export(LoginSessions.Session session, AccountSecurity.Confirmation confirmation, String clientAddress) {
        return security.sudo(session, confirmation, clientAddress)
                .chain(() -> directory.exportAccount(session.personId()))
                .invoke(() -> EVENTS.infof("event=account_exported page=account person_id=%d", session.personId()));
    }

    /**
     * Deletes the account after the password again and the username typed ({@code confirm}):
     * the directory's part at once, and this service's too (every token and sign-in of the person
     * ends here before the page answers; the directory's erasure repeats it, to no effect).
     * {@link AccountSecurity.SudoRefused}, {@link DirectoryClient.Invalid} when confirm is not the
     * username, {@link DirectoryClient.Conflict} for organizations the person alone administers.
     */
    public Uni<DirectoryClient.DeletedAccount> delete(LoginSessions.Session session, String confirm,
            AccountSecurity.Confirmation confirmation, String clientAddress) {
        if (confirm == null || !confirm.strip().equalsIgnoreCase(session.username())) {
            return Uni.createFrom().failure(new DirectoryClient.Invalid());
        }
        return security.sudo(session, confirmation, clientAddress)
                .chain(() -> directory.deleteAccount(session.personId(), new DirectoryClient.Deletion(confirm.strip())))
                .call(deleted -> personData.erased(session.personId()))
                .invoke(deleted -> EVENTS.infof("event=account_deleted page=account person_id=%d", session.personId()));
    }

    public Uni<DirectoryClient.AccountProfile> profile(LoginSessions.Session session) {
        return directory.accountProfile(session.personId());
    }

    /**
     * The display name, the sign-in address made public or not ({@code showEmail}; only a verified
     * one can be), and the standard profile claims ({@code details}, by name; a null value removes
     * one). {@link DirectoryClient.Invalid}, naming the fields, when the rules refuse them.
     */
    public Uni<DirectoryClient.AccountProfile> change(LoginSessions.Session session, String displayName, boolean showEmail,
            Map<String, String> details) {
        return profile(session).chain(profile -> {
            Map<String, Object> change = new HashMap<>(details);
            change.put("display_name", displayName);
            change.put("email", showEmail && profile.emailVerified() ? profile.email() : null);
            return directory.changeProfile(session.personId(), change);
        });
    }

    /**
     * A new sign-in address, after the password (or a passkey) again: {@link AccountSecurity.SudoRefused},
     * {@link DirectoryClient.Invalid} for an address that is none, {@link DirectoryClient.Conflict}
     * when another account has it.
     */
    public Uni<DirectoryClient.ChangedEmail> changeEmail(LoginSessions.Session session, String email,
            AccountSecurity.Confirmation confirmation, String clientAddress) {
        return security.sudo(session, confirmation, clientAddress)
                .chain(() -> directory.changeEmail(session.personId(), new DirectoryClient.NewEmail(email, clientAddress)))
                .invoke(changed -> {
                    if (changed.changed()) {
                        EVENTS.infof("event=email_changed page=account person_id=%d", session.personId());
                    }
                });
    }

    /** A new avatar: {@link DirectoryClient.Invalid} for anything but a PNG or JPEG the directory takes. */
    public Uni<DirectoryClient.AccountProfile> setAvatar(LoginSessions.Session session, byte[] image) {
        return directory.setAvatar(session.personId(), image);
    }

    /** {@link DirectoryClient.Conflict} when the address is proven already. */
    public Uni<Void> resendVerification(LoginSessions.Session session) {
        return directory.resendVerification(session.personId());
    }
}
