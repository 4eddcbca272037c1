package org.ziggurat.auth.granttypes;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.Issuer;
import org.ziggurat.auth.clients.ClientCredentials;
import org.ziggurat.auth.oauth.GrantTypes;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.Scopes;
import org.ziggurat.auth.oauth.UserCodes;
import org.ziggurat.auth.tokens.DeviceAuthorizationRepository;
import org.ziggurat.auth.tokens.TokenRules;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The device authorization endpoint (RFC 8628 §3.1), where the device_code grant starts: a device
 * asks to be authorized for scopes; the person will enter the user code. A user code that a live
 * request holds already is drawn again.
 */
@ApplicationScoped
public class DeviceAuthorizations {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final DeviceAuthorizationRepository devices;
    private final TokenCrypto crypto;
    private final AuthConfig config;
    private final TokenGrants grants;

    DeviceAuthorizations(DeviceAuthorizationRepository devices, TokenCrypto crypto, AuthConfig config, TokenGrants grants) {
        this.devices = devices;
        this.crypto = crypto;
        this.config = config;
        this.grants = grants;
    }

    /** What the device authorization endpoint answers (RFC 8628 §3.2): values in clear, once. */
    public record Started(String deviceCode, String userCode, long expiresIn, long interval) {

        /** RFC 8628 §3.2's answer, with the verification page at {@code verificationUri}. */
        public Map<String, Object> answer(String verificationUri) {
            String shown = UserCodes.display(userCode);
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("device_code", deviceCode);
            answer.put("user_code", shown);
            answer.put("verification_uri", verificationUri);
            answer.put("verification_uri_complete", verificationUri + "?user_code=" + shown);
            answer.put("expires_in", expiresIn);
            answer.put("interval", interval);
            return answer;
        }
    }

    /**
     * RFC 8628 §3.2's answer to a client that may use the device_code grant, with the verification
     * page of this issuer.
     */
    public Uni<Map<String, Object>> start(ClientCredentials.Claimed claimed, Set<String> scopes) {
        return grants.authenticatedFor(claimed, GrantTypes.DEVICE_CODE).chain(app -> start(app, scopes))
                .map(started -> started.answer(Issuer.of(config) + "/oauth/device"));
    }

    Uni<Started> start(ApplicationRow client, Set<String> scopes) {
        if (client.ownerId() == null) {
            return Uni.createFrom().failure(new OAuthException(OAuthError.UNAUTHORIZED_CLIENT,
                    "A platform client cannot act for a person."));
        }
        Scopes.requireAllowed(scopes, client.scopes(), client.verified());
        return start(client, scopes, 3);
    }

    private Uni<Started> start(ApplicationRow client, Set<String> scopes, int attemptsLeft) {
        String deviceCode = crypto.newDeviceCode();
        String userCode = crypto.randomString(UserCodes.ALPHABET, UserCodes.LENGTH);
        long interval = config.devicePollInterval().toSeconds();
        OffsetDateTime expires = OffsetDateTime.now(ZoneOffset.UTC).plus(config.deviceCodeLifetime());
        return devices.insert(new DeviceAuthorizationRepository.NewRequest(crypto.hash(deviceCode), crypto.hash(userCode),
                        client.id(), List.copyOf(scopes), (int) interval, expires), config.liveDeviceCodesPerClient())
                .chain(inserted -> {
                    if (inserted == DeviceAuthorizationRepository.Inserted.CLIENT_FULL) {
                        EVENTS.warnf("event=device_authorization_refused client_id=%s reason=live_codes_at_cap cap=%d",
                                client.clientId(), config.liveDeviceCodesPerClient());
                        return Uni.createFrom().failure(new OAuthException(OAuthError.SLOW_DOWN, "Too many device codes "
                                + "of this application are waiting for people now. Try again shortly.",
                                TokenRules.LIVE_CAP_RETRY_AFTER));
                    }
                    if (inserted == DeviceAuthorizationRepository.Inserted.STORED) {
                        EVENTS.infof("event=device_authorization_started client_id=%s", client.clientId());
                        return Uni.createFrom().item(new Started(deviceCode, userCode,
                                config.deviceCodeLifetime().toSeconds(), interval));
                    }
                    if (attemptsLeft <= 1) {
                        return Uni.createFrom().failure(new IllegalStateException("no free user code after 3 draws"));
                    }
                    return start(client, scopes, attemptsLeft - 1);
                });
    }
}
