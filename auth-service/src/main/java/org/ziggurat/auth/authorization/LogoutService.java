package org.ziggurat.auth.authorization;

import com.nimbusds.jwt.JWTClaimsSet;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.clients.ApplicationRepository;
import org.ziggurat.auth.clients.ClientCredentials;
import org.ziggurat.auth.tokens.IdTokens;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * OpenID Connect RP-Initiated Logout 1.0: which requests are good, where the browser goes after,
 * and whether the person must confirm. The session ends at once only when the request carries an
 * ID token of this server for the person signed in (the client stands behind it); otherwise the
 * person is asked, so that no other site can sign them out with a link.
 */
@ApplicationScoped
public class LogoutService {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final IdTokens idTokens;
    private final ApplicationRepository applications;
    private final LoginSessions sessions;

    LogoutService(IdTokens idTokens, ApplicationRepository applications, LoginSessions sessions) {
        this.idTokens = idTokens;
        this.applications = applications;
        this.sessions = sessions;
    }

    /** The request's parameters (RP-Initiated Logout §2). */
    public record Request(String idTokenHint, String postLogoutRedirectUri, String clientId, String state) {
        public static final List<String> PARAMETERS = List.of("id_token_hint", "post_logout_redirect_uri", "client_id", "state");
    }

    /**
     * A checked request: {@code problem} says why it is refused (an error page, never a
     * redirect); else {@code returnTo} is where the browser goes once signed out (null: our
     * signed-out page), and {@code hintSubject} the person of a valid id_token_hint.
     */
    public record Checked(String problem, String returnTo, String hintSubject, String clientId) {
        static Checked refused(String problem) {
            return new Checked(problem, null, null, null);
        }
    }

    public Uni<Checked> check(Request request) {
        Uni<JWTClaimsSet> hint = request.idTokenHint() == null ? Uni.createFrom().nullItem()
                : idTokens.verified(request.idTokenHint());
        return hint.chain(claims -> {
            if (request.idTokenHint() != null && claims == null) {
                return Uni.createFrom().item(Checked.refused("The id_token_hint is not an ID token of this server."));
            }
            if (claims != null && request.clientId() != null && !claims.getAudience().contains(request.clientId())) {
                return Uni.createFrom().item(Checked.refused("The id_token_hint was issued to another client than client_id."));
            }
            String clientId = claims != null ? claims.getAudience().get(0) : request.clientId();
            String subject = claims == null ? null : claims.getSubject();
            if (request.postLogoutRedirectUri() == null) {
                return Uni.createFrom().item(new Checked(null, null, subject, clientId));
            }
            if (clientId == null || !ClientCredentials.plausibleClientId(clientId)) {
                return Uni.createFrom().item(Checked.refused(
                        "A post_logout_redirect_uri needs the client: send id_token_hint or client_id."));
            }
            return applications.byClientId(clientId).map(app -> {
                if (app == null || !app.postLogoutRedirectUris().contains(request.postLogoutRedirectUri())) {
                    return Checked.refused("The post_logout_redirect_uri is not one that the application registered.");
                }
                String returnTo = request.postLogoutRedirectUri();
                if (request.state() != null) {
                    returnTo += (returnTo.contains("?") ? "&" : "?") + "state="
                            + URLEncoder.encode(request.state(), StandardCharsets.UTF_8);
                }
                return new Checked(null, returnTo, subject, clientId);
            });
        });
    }

    /** Whether the session may end without asking: the hint names the person signed in. */
    public boolean endsWithoutAsking(Checked checked, LoginSessions.Session session) {
        return checked.hintSubject() != null && checked.hintSubject().equals(Long.toString(session.personId()));
    }

    public Uni<Void> end(String sessionCookie, LoginSessions.Session session, Checked checked) {
        return sessions.end(sessionCookie).invoke(ended -> {
            if (ended) {
                EVENTS.infof("event=logout person_id=%d client_id=%s", session.personId(),
                        checked.clientId() == null ? "-" : checked.clientId());
            }
        }).replaceWithVoid();
    }
}
