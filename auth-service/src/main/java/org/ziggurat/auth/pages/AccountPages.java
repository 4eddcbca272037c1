package org.ziggurat.auth.pages;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.ziggurat.auth.authorization.LoginSessions;
import org.ziggurat.auth.clients.PlatformName;
import org.ziggurat.auth.passkeys.PasskeyChallenges;
import org.ziggurat.auth.passkeys.Passkeys;
import org.ziggurat.directory.client.DirectoryClient;

import io.quarkus.qute.TemplateData;

import java.net.URLEncoder;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The account page's security section: what the person has (authenticator, recovery codes, the
 * latest changes), enrolling an authenticator (its QR code and key), and recovery codes shown once.
 */
@ApplicationScoped
class AccountPages {

    static final String PATH = "/account/security";

    private final Template security;
    private final Template totp;
    private final Template codes;
    private final PlatformName platformName;
    private final Passkeys passkeys;

    AccountPages(@Location("account_security") Template security, @Location("account_totp") Template totp,
            @Location("account_codes") Template codes, PlatformName platformName, Passkeys passkeys) {
        this.passkeys = passkeys;
        this.security = security;
        this.totp = totp;
        this.codes = codes;
        this.platformName = platformName;
    }

    /** What the security section shows, in words. */
    @TemplateData
    record SecurityView(boolean on, boolean totp, String totpSince, String totpLastUsed, List<PasskeyView> passkeys,
            long recoveryCodesLeft, List<EventView> events) {
    }

    @TemplateData
    record PasskeyView(long id, String name, String added, String lastUsed) {
    }

    @TemplateData
    record EventView(String when, String what, String from, String device, boolean failure) {
    }

    /** An application with access: its grant's id (for the revoke form), name, scopes, since, last token. */
    @TemplateData
    record ApplicationView(long grant, String name, String scopes, String since, String lastUsed) {
    }

    /** One sign-in: its id (for the sign-out form), where from, since and last used; {@code current}: this browser's. */
    @TemplateData
    record SessionView(long id, String device, String address, String since, String lastSeen, boolean current) {
    }

    static List<SessionView> sessions(List<LoginSessions.Listed> listed) {
        return listed.stream().map(l -> new SessionView(l.id(), l.userAgent() == null ? "an unknown browser" : l.userAgent(),
                l.clientAddress() == null ? "an unknown address" : l.clientAddress(),
                MOMENT.format(l.startedAt().atZone(ZoneOffset.UTC)),
                l.lastSeenAt() == null ? null : MOMENT.format(l.lastSeenAt().atZone(ZoneOffset.UTC)), l.current())).toList();
    }

    static List<ApplicationView> applications(List<org.ziggurat.auth.authorization.AccountSecurity.Application> apps) {
        return apps.stream().map(a -> new ApplicationView(a.grant(), a.name(), String.join(" ", a.scopes()),
                DAY.format(a.since().atZone(ZoneOffset.UTC)),
                a.lastUsed() == null ? null : MOMENT.format(a.lastUsed().atZone(ZoneOffset.UTC)))).toList();
    }

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("d MMMM uuuu", Locale.ENGLISH);
    private static final DateTimeFormatter MOMENT = DateTimeFormatter.ofPattern("d MMMM uuuu, HH:mm 'UTC'", Locale.ENGLISH);
    private static final Map<String, String> EVENTS = Map.ofEntries(
            Map.entry("sign_in", "signed in"),
            Map.entry("sign_in_failed", "a wrong password given"),
            Map.entry("second_factor_failed", "a wrong second-factor code given"),
            Map.entry("email_changed", "sign-in address changed to "),
            Map.entry("email_verified", "sign-in address confirmed"),
            Map.entry("application_authorized", "access given to "),
            Map.entry("application_revoked", "access taken from "),
            Map.entry("totp_enabled", "authenticator app set up"),
            Map.entry("totp_removed", "authenticator app removed"),
            Map.entry("recovery_codes_regenerated", "new recovery codes made"),
            Map.entry("recovery_code_used", "a recovery code used to sign in"),
            Map.entry("passkey_added", "passkey added"),
            Map.entry("passkey_removed", "passkey removed"),
            Map.entry("password_reset", "password set with a recovery link"),
            Map.entry("password_changed", "password changed"),
            Map.entry("identity_linked", "another provider's account linked: "),
            Map.entry("identity_unlinked", "another provider's account unlinked: "),
            Map.entry("upstream_second_factor_off", "second factor no longer asked after another provider's sign-in"),
            Map.entry("upstream_second_factor_on", "second factor asked again after another provider's sign-in"));

    static SecurityView view(DirectoryClient.FactorStatus status) {
        List<EventView> events = status.events() == null ? List.of() : status.events().stream()
                .map(e -> new EventView(MOMENT.format(e.at().atZoneSameInstant(ZoneOffset.UTC)),
                        EVENTS.getOrDefault(e.kind(), e.kind()) + (e.detail() == null ? "" : e.detail()), e.clientAddress(),
                        e.device(), e.kind().endsWith("_failed")))
                .toList();
        List<PasskeyView> passkeys = status.passkeys() == null ? List.of() : status.passkeys().stream()
                .map(p -> new PasskeyView(p.id(), p.name(), day(p.createdAt()), day(p.lastUsedAt()))).toList();
        return new SecurityView(status.twoFactorAuthentication(), "enabled".equals(status.totp()),
                day(status.totpConfirmedAt()), day(status.totpLastUsedAt()), passkeys, status.recoveryCodesLeft(), events);
    }

    private static String day(OffsetDateTime at) {
        return at == null ? null : DAY.format(at.atZoneSameInstant(ZoneOffset.UTC));
    }

    Response security(LoginSessions.Session session, DirectoryClient.FactorStatus status,
            List<ApplicationView> applications, List<SessionView> sessions, String message, int code, UriInfo uri) {
        return PageView.of(security.data("applications", applications).data("sessions", sessions)
                .data("otherSessions", sessions.stream().anyMatch(v -> !v.current()))
                .data("username", session.username()).data("view", view(status))
                .data("passkeyOptions", passkeys.registrationOptions(session.personId(), session.username(), platformName.name()))
                .data("sudoOptions", status.passkeys() == null || status.passkeys().isEmpty() ? null
                        : passkeys.signInOptions(PasskeyChallenges.Ceremony.SUDO, session.personId()))
                .data("confirmNeeded", !session.recent())
                .data("error", message).data("signedInWith", session.amr().contains("mfa")
                        ? "your password and a second factor" : "your password"), uri)
                .posting(PATH).signedIn(session).answer(code).build();
    }

    /** Enrolling: the key's QR code and text ({@code enrolment} null: the form again after a wrong code). */
    Response totp(LoginSessions.Session session, DirectoryClient.TotpEnrolment enrolment, String message, int code,
            UriInfo uri) {
        String qr = null;
        String key = null;
        if (enrolment != null) {
            String issuer = platformName.name();
            String label = encode(issuer) + ":" + encode(session.username());
            String otpauth = "otpauth://totp/" + label + "?secret=" + enrolment.secret() + "&issuer=" + encode(issuer)
                    + "&algorithm=" + enrolment.algorithm() + "&digits=" + enrolment.digits() + "&period=" + enrolment.period();
            qr = QrCodes.svg(otpauth, "QR code of the key for " + issuer);
            key = grouped(enrolment.secret());
        }
        return PageView.of(totp.data("qr", qr).data("key", key).data("error", message), uri)
                .posting(PATH).signedIn(session).answer(code).build();
    }

    /** New recovery codes, shown this once. */
    Response recoveryCodes(List<String> recoveryCodes, UriInfo uri) {
        return PageView.of(codes.data("back", PagePaths.apiPath(uri, PATH)).data("codes", recoveryCodes), uri).answer(200).build();
    }

    /** The key in groups of four, as apps that take it typed show it. */
    static String grouped(String secret) {
        return secret.replaceAll("(.{4})(?!$)", "$1 ");
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
