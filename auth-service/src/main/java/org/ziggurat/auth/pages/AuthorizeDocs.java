package org.ziggurat.auth.pages;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The forms of the authorization endpoint, for the API's description: {@link AuthorizeResource} reads them. */
final class AuthorizeDocs {

    private AuthorizeDocs() {
    }

    @Schema(name = "AuthorizationRequest", description = "The API form of the authorization endpoint: the resource "
            + "owner's access token (Authorization header) authorizes a code for the client. The login and consent "
            + "pages post the same parameters with action (login, approve or deny) and their own fields.")
    public record AuthorizationForm(
            @Schema(enumeration = "code") String responseType,
            @Schema(required = true) String clientId,
            @Schema(format = "password") String clientSecret,
            @Schema(required = true) String redirectUri,
            @Schema(description = "The resource owner, who must be the token's holder.") String username,
            String scope,
            String state,
            String codeChallenge,
            @Schema(enumeration = "S256") String codeChallengeMethod,
            @Schema(description = "OpenID Connect, on the pages' forms.") String nonce,
            @Schema(description = "OpenID Connect, on the pages' forms.") String prompt,
            @Schema(description = "OpenID Connect, on the pages' forms.") String maxAge,
            @Schema(description = "OpenID Connect, on the pages' forms: https://refeds.org/profile/mfa asks for a second factor.")
            String acrValues,
            @Schema(description = "OpenID Connect Core 6.1: a signed request object (a posted authorization request).")
            String request,
            @Schema(enumeration = {"login", "second_factor", "passkey", "approve", "deny"}, description = "Set by the pages' own forms only.") String action,
            @Schema(description = "action=second_factor: a code of the authenticator app, or a recovery code.") String code,
            @Schema(description = "action=passkey or second_factor: the browser's PublicKeyCredential, as its toJSON() gives it.")
            String credential) {
    }

    @Schema(name = "AuthorizationDeletion", description = "The spec's DELETE /oauth/authorize form: the client and "
            + "the access token whose authorization goes.")
    public record AuthorizationDeletion(@Schema(enumeration = "token") String responseType,
            @Schema(required = true) String accessToken,
            @Schema(required = true) String clientId,
            @Schema(format = "password") String clientSecret,
            @Schema(required = true) String redirectUri,
            String username) {
    }

    @Schema(name = "LogoutRequest", description = "OpenID Connect RP-Initiated Logout's parameters, in a form; the "
            + "confirmation page adds action and csrf.")
    public record LogoutForm(String idTokenHint, String postLogoutRedirectUri, String clientId, String state,
            @Schema(enumeration = "logout", description = "Set by the confirmation page only.") String action,
            @Schema(description = "Set by the confirmation page only.") String csrf) {
    }

    @Schema(name = "DeviceVerificationForm", description = "The device verification page's forms (RFC 8628 section 3.3).")
    public record DeviceForm(
            @Schema(required = true, enumeration = {"login", "second_factor", "passkey", "verify", "approve", "deny"}) String action,
            @Schema(description = "The CSRF field of the page that sent the form.") String csrf,
            @Schema(description = "The code the device shows.", example = "BCDF-GHJK") String userCode,
            @Schema(description = "action=login only.") String login,
            @Schema(format = "password", description = "action=login only.") String password,
            @Schema(description = "action=second_factor: a code of the authenticator app, or a recovery code.") String code,
            @Schema(description = "action=passkey or second_factor: the browser's PublicKeyCredential, as its toJSON() gives it.")
            String credential) {
    }

    @Schema(name = "AccountSecurityForm", description = "The account page's security forms.")
    public record AccountSecurityForm(
            @Schema(required = true, enumeration = {"login", "second_factor", "passkey", "totp_start", "totp_confirm",
                    "totp_remove", "recovery_regenerate", "passkey_register", "passkey_remove", "password_change", "application_revoke", "session_end", "sessions_end_others"}) String action,
            @Schema(description = "The CSRF field of the page that sent the form.") String csrf,
            @Schema(description = "action=login only.") String login,
            @Schema(format = "password", description = "action=login; totp_remove and recovery_regenerate (the password "
                    + "again); password_change (the current one).") String password,
            @Schema(format = "password", description = "action=password_change: the new password, 10 to 128 characters.")
            String newPassword,
            @Schema(format = "password", description = "action=password_change: the new password again.") String newPasswordAgain,
            @Schema(description = "action=application_revoke: the grant whose access ends.") String grant,
            @Schema(description = "action=session_end: the sign-in to end.") String session,
            @Schema(description = "action=second_factor and totp_confirm: a code of the authenticator app (or a recovery "
                    + "code, second_factor only).") String code,
            @Schema(description = "action=passkey, second_factor and passkey_register, and in place of the password for "
                    + "totp_remove, recovery_regenerate and passkey_remove: the browser's PublicKeyCredential, as its "
                    + "toJSON() gives it.") String credential,
            @Schema(description = "action=passkey_register: what the person calls the passkey.", maxLength = 64) String name,
            @Schema(description = "action=passkey_remove: the passkey's id.") String passkey) {
    }

    @Schema(name = "AccountProfileForm", description = "The account page's forms.")
    public record AccountProfileForm(
            @Schema(required = true, enumeration = {"login", "second_factor", "passkey", "profile", "email_change",
                    "email_resend", "export", "delete", "unlink_identity", "upstream_settings"}) String action,
            @Schema(description = "action=unlink_identity: the linked identity's id.") String identity,
            @Schema(description = "action=upstream_settings: yes asks for the person's own second factor after another "
                    + "provider's sign-in too; left out, it is not asked for.", enumeration = "yes") String secondFactorAfterUpstream,
            @Schema(description = "action=delete: the username, typed again.", maxLength = 39) String confirm,
            @Schema(description = "The CSRF field of the page that sent the form.") String csrf,
            @Schema(description = "action=profile: the name shown, 1 to 255 characters.", maxLength = 255) String displayName,
            @Schema(description = "action=profile: yes makes the confirmed sign-in address public; left out, it is not.",
                    enumeration = "yes") String showEmail,
            @Schema(description = "action=profile: given name(s), private; empty removes it.", maxLength = 255) String givenName,
            @Schema(description = "action=profile: surname(s), private; empty removes it.", maxLength = 255) String familyName,
            @Schema(description = "action=profile: a web page shown on the public profile, an absolute http(s) URL; empty "
                    + "removes it.", maxLength = 2048) String website,
            @Schema(description = "action=profile: a BCP 47 language tag (en-GB), private; empty removes it.", maxLength = 35)
            String locale,
            @Schema(description = "action=profile: a time zone of the tz database (Europe/Paris), private; empty removes it.")
            String zoneinfo,
            @Schema(description = "action=email_change: the new sign-in address.", format = "email", maxLength = 254) String email,
            @Schema(format = "password", description = "action=login; email_change, export and delete: the current password.")
            String password,
            @Schema(description = "action=login only.") String login,
            @Schema(description = "action=second_factor: a code of the authenticator app, or a recovery code.") String code,
            @Schema(description = "action=passkey and second_factor, and in place of the password for email_change: the "
                    + "browser's PublicKeyCredential, as its toJSON() gives it.") String credential) {
    }

    @Schema(name = "FederationStartForm", description = "A sign-in page's button of another provider, or the account page's "
            + "link button.")
    public record FederationStartForm(
            @Schema(required = true, description = "The provider's id, as the operator configured it.") String provider,
            @Schema(required = true, description = "The sign-in form's CSRF field; intent=link: the session's.") String csrf,
            @Schema(description = "Where the person goes once signed in: /oauth/authorize (with the authorization request's "
                    + "parameters), /oauth/device (with user_code), /account or /account/security.") String returnPath,
            @Schema(enumeration = "link", description = "link: link the provider's identity to the signed-in person.") String intent) {
    }

    @Schema(name = "FederationAnswerForm", description = "The provider's answer, as the page the provider sent the browser "
            + "back to posts it.")
    public record FederationAnswerForm(@Schema(required = true) String state, String code,
            @Schema(description = "RFC 9207: the provider's issuer.") String iss, String error) {
    }

    @Schema(name = "FederationIdentityForm", description = "The choice for an identity no account uses yet.")
    public record FederationIdentityForm(
            @Schema(required = true, enumeration = {"create", "link", "login", "second_factor", "passkey"}) String action,
            @Schema(required = true, description = "The page's CSRF field (link: the session's).") String csrf,
            @Schema(description = "create: the new username.", maxLength = 39) String username,
            @Schema(description = "create: the name shown.", maxLength = 255) String displayName,
            @Schema(description = "create: the sign-in address.", format = "email", maxLength = 254) String email,
            @Schema(description = "login: a username or address.") String login,
            @Schema(format = "password", description = "login: the password.") String password) {
    }

    @Schema(name = "AvatarForm", description = "The account page's avatar form.")
    public record AvatarForm(@Schema(required = true, description = "The CSRF field of the page that sent the form.") String csrf,
            @Schema(required = true, type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.STRING, format = "binary",
                    description = "A PNG or JPEG image, at most 1 MB.") String avatar) {
    }

    @Schema(name = "EmailVerificationForm", description = "The Confirm button of the page a verification link opens.")
    public record EmailVerificationForm(@Schema(required = true, description = "The link's token.") String token) {
    }

    @Schema(name = "PasswordRecoveryForm", description = "Forgot your password?")
    public record PasswordRecoveryForm(@Schema(required = true, maxLength = 320, description = "A username or an e-mail address.")
            String login) {
    }

    @Schema(name = "PasswordResetForm", description = "The form of the page a recovery link opens.")
    public record PasswordResetForm(@Schema(required = true, description = "The link's token.") String token,
            @Schema(required = true, format = "password", description = "10 to 128 characters.") String password,
            @Schema(required = true, format = "password", description = "The same again.") String passwordAgain) {
    }
}
