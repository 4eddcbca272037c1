package org.ziggurat.directory.mail;

import jakarta.enterprise.context.ApplicationScoped;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * The mails that carry a link for a person to act on: proving an address theirs. Plain text. The
 * link opens a page that asks before it does anything (a GET changes nothing: mail scanners
 * follow links).
 */
@ApplicationScoped
public class AccountMails {

    public static final String EMAIL_VERIFICATION = "email_verification";
    public static final String PASSWORD_RECOVERY = "password_recovery";
    /** To the owner of an address someone tried to sign up with (the answer did not say it is taken). */
    public static final String SIGN_UP_ATTEMPT = "sign_up_attempt";

    private final MailSettings settings;

    AccountMails(MailSettings settings) {
        this.settings = settings;
    }

    /** The link that proves the address, for the token mailed to it. */
    public String verificationLink(String token) {
        return settings.accountUrl() + "/email/verification?token=" + URLEncoder.encode(token, StandardCharsets.UTF_8);
    }

    /** The link that sets a new password, for the token mailed with it. */
    public String recoveryLink(String token) {
        return settings.accountUrl() + "/password/reset?token=" + URLEncoder.encode(token, StandardCharsets.UTF_8);
    }

    public SecurityNotices.Notice recovery(String username, String clientAddress, String token) {
        return new SecurityNotices.Notice("Set a new password",
                "Hello " + username + ",\n\n"
                        + "Someone" + (clientAddress == null ? "" : " at the address " + clientAddress)
                        + " asked to set a new password for your account. If it was you, open this link and choose one:\n\n"
                        + recoveryLink(token) + "\n\n"
                        + "The link works once, for 30 minutes. Setting a new password signs you out everywhere; your "
                        + "second factor, if you have one, is still asked when you sign in.\n\n"
                        + "If it was not you, ignore this mail: your password stays as it is.\n");
    }

    /**
     * To the owner of an address that a new sign-up gave: the sign-up was answered as any other
     * (so that nobody learns which addresses have an account), and the owner learns of it here.
     */
    public SecurityNotices.Notice signUpAttempt(String username, String address) {
        return new SecurityNotices.Notice("Someone tried to sign up with your address",
                "Hello " + username + ",\n\n"
                        + "Someone just tried to create a new account with this address (" + address + "). It already "
                        + "belongs to your account " + username + ", so no account was made.\n\n"
                        + "If it was you, you do not need a new account: sign in as " + username + ". If you forgot your "
                        + "password, choose \"Forgot your password?\" on the sign-in page. Your account:\n\n"
                        + settings.accountUrl() + "\n\n"
                        + "If it was not you, ignore this mail: nothing changed in your account.\n");
    }

    public SecurityNotices.Notice verification(String username, String address, String token) {
        return new SecurityNotices.Notice("Confirm your e-mail address",
                "Hello " + username + ",\n\n"
                        + "Please confirm that " + address + " is your address: open this link, then press Confirm.\n\n"
                        + verificationLink(token) + "\n\n"
                        + "The link works once, for 24 hours. If you did not sign up or change your address, you may "
                        + "ignore this mail: nothing is confirmed without it.\n");
    }

    /** The link that makes an account through a provider, for the token mailed with it. */
    public String identitySignUpLink(String token) {
        return settings.accountUrl() + "/federation/confirmation?token=" + URLEncoder.encode(token, StandardCharsets.UTF_8);
    }

    /**
     * To the address a new account through a provider gave, which that provider did not verify:
     * nothing is made until the link is used. It names the provider (the operators' name for it) and
     * the username asked for, never words the provider or its user chose.
     */
    public SecurityNotices.Notice identitySignUp(String username, String address, String provider, String token) {
        return new SecurityNotices.Notice("Confirm your e-mail address to make your account",
                "Hello,\n\n"
                        + "Someone who signed in with " + provider + " asked to make the account " + username
                        + " with this address (" + address + "). If it was you, open this link and press Confirm: the "
                        + "account is made then, and you sign in with " + provider + ".\n\n"
                        + identitySignUpLink(token) + "\n\n"
                        + "The link works once, for 24 hours. If it was not you, ignore this mail: no account is made, "
                        + "and this address stays free.\n");
    }

    /**
     * To an account's address that a new account through a provider asked for: nothing is made (the
     * address is this account's), and the page said the same as for a free address, so that it tells
     * nobody which addresses have accounts here.
     */
    public SecurityNotices.Notice identitySignUpTaken(String address, String provider) {
        return new SecurityNotices.Notice("Someone asked for a new account with your address",
                "Hello,\n\n"
                        + "Someone who signed in with " + provider + " asked to make a new account with this address ("
                        + address + "), which is your account's already. Nothing was made.\n\n"
                        + "If it was you and you want to sign in with " + provider + ", sign in to your account here and "
                        + "link it on your account page (" + settings.accountUrl() + "). If it was not you, ignore this "
                        + "mail.\n");
    }
}
