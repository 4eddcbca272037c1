package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.clients.ApplicationRepository;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.oauth.UserCodes;
import org.ziggurat.auth.tokens.ConsentRepository;
import org.ziggurat.auth.tokens.DeviceAuthorizationRepository;

import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The verification page's decisions (RFC 8628 §3.3): which pending request a user code names,
 * and the signed-in person's answer to it. Wrong codes are counted per session: after
 * {@code user-code-attempts} the session ends, and guessing needs a new sign-in, which the
 * directory throttles.
 */
@ApplicationScoped
public class DeviceVerification {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final DeviceAuthorizationRepository devices;
    private final ApplicationRepository applications;
    private final ConsentRepository consents;
    private final UserCodeAttempts userCodes;
    private final TokenCrypto crypto;
    private final AuthConfig config;
    private final Registrants registrants;
    private final SecurityLogEntries securityLog;

    DeviceVerification(DeviceAuthorizationRepository devices, ApplicationRepository applications, ConsentRepository consents,
            UserCodeAttempts userCodes, TokenCrypto crypto, AuthConfig config, Registrants registrants,
            SecurityLogEntries securityLog) {
        this.securityLog = securityLog;
        this.registrants = registrants;
        this.devices = devices;
        this.applications = applications;
        this.consents = consents;
        this.userCodes = userCodes;
        this.crypto = crypto;
        this.config = config;
    }

    /** A pending request, as the confirmation page shows it. */
    /** {@code registeredBy}: who registered the application, when no operator verified it; else null. */
    public record Found(String userCode, ApplicationRow app, List<String> scopes, String registeredBy) {
    }

    /**
     * What a typed code led to: the request, or a wrong code; {@code lockedUntil} is set when that
     * wrong code was one too many and the device form is now locked for the session.
     */
    public record Lookup(Found found, Instant lockedUntil) {
    }

    /** Until when the device form is locked for this session; null when it is not. */
    public Uni<Instant> lockedUntil(String sessionCookie) {
        return userCodes.lockedUntil(sessionCookie);
    }

    /** Looks a typed code up for the form's POST, where a wrong one counts. */
    public Uni<Lookup> find(String sessionCookie, LoginSessions.Session session, String typed) {
        String code = UserCodes.normalize(typed);
        Uni<DeviceAuthorizationRepository.Pending> pending = code == null ? Uni.createFrom().nullItem()
                : devices.pending(crypto.hash(code));
        return pending.chain(request -> request == null ? wrong(sessionCookie, session)
                : applications.byId(request.applicationId()).chain(app -> app == null ? wrong(sessionCookie, session)
                        : (app.verified() ? Uni.createFrom().<String>nullItem() : registrants.of(app))
                                .map(who -> new Lookup(new Found(code, app, request.scopes(), who), null))));
    }

    private Uni<Lookup> wrong(String sessionCookie, LoginSessions.Session session) {
        return userCodes.failed(sessionCookie, config.userCodeAttempts(), config.userCodeLock()).map(lockedUntil -> {
            if (lockedUntil != null) {
                EVENTS.warnf("event=user_code_attempts_exceeded person_id=%d locked_until=%s", session.personId(), lockedUntil);
            }
            return new Lookup(null, lockedUntil);
        });
    }

    /** The person's answer; false when the request was no longer pending (answered meanwhile, expired). */
    public Uni<Boolean> decide(Found found, LoginSessions.Session session, boolean approved) {
        SecurityLogEntries.Origin origin = securityLog.origin();
        return devices.decide(crypto.hash(found.userCode()), approved, session.personId(), session.username(),
                        session.authTime(), session.hash())
                .call(decided -> decided && approved
                        ? consents.grant(found.app().id(), session.personId(), new LinkedHashSet<>(found.scopes()))
                                .chain(() -> securityLog.applicationAuthorized(session.personId(), found.app().name(), origin))
                        : Uni.createFrom().voidItem())
                .invoke(decided -> {
                    if (decided) {
                        EVENTS.infof("event=device_%s client_id=%s person_id=%d", approved ? "approved" : "denied",
                                found.app().clientId(), session.personId());
                    }
                });
    }
}
