package org.ziggurat.auth.granttypes;

import org.ziggurat.auth.tokens.SignIn;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.oauth.GrantTypes;
import org.ziggurat.auth.oauth.IssuedTokens;
import org.ziggurat.auth.oauth.OAuthError;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.auth.tokens.DeviceAuthorizationRepository;
import org.ziggurat.auth.tokens.TokenIssuer;
import org.ziggurat.auth.tokens.TokenBounds;
import org.ziggurat.auth.tokens.TokenRequest;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The device_code grant (RFC 8628 §3.4, §3.5): pending, too soon (the interval grows), denied,
 * expired; once approved, the tokens, exactly once.
 */
@ApplicationScoped
public class DeviceCodeGrant implements TokenGrant {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final DeviceAuthorizationRepository devices;
    private final TokenCrypto crypto;
    private final TokenIssuer issuer;

    DeviceCodeGrant(DeviceAuthorizationRepository devices, TokenCrypto crypto, TokenIssuer issuer) {
        this.devices = devices;
        this.crypto = crypto;
        this.issuer = issuer;
    }

    @Override
    public String grantType() {
        return GrantTypes.DEVICE_CODE;
    }

    @Override
    public Issuing read(OAuthForm form, String callerAddress) {
        String deviceCode = form.require("device_code");
        return (client, request) -> poll(client, deviceCode, request);
    }

    Uni<IssuedTokens> poll(ApplicationRow client, String deviceCode, TokenRequest request) {
        TokenBounds bounds = TokenIssuer.bounds(client, request, null);
        byte[] hash = crypto.hash(deviceCode);
        return devices.poll(hash, client.id()).chain(poll -> {
            if (poll == null) {
                throw OAuthException.invalidGrant("The device code is not valid.");
            }
            if (poll.expired()) {
                throw new OAuthException(OAuthError.EXPIRED_TOKEN, "The device code expired. Start again.");
            }
            if (poll.tooSoon()) {
                throw new OAuthException(OAuthError.DEVICE_SLOW_DOWN, "Polled too soon: wait 5 seconds more between polls.");
            }
            switch (poll.status()) {
                case "pending" -> throw new OAuthException(OAuthError.AUTHORIZATION_PENDING, "The person has not answered yet.");
                case "denied" -> throw new OAuthException(OAuthError.DEVICE_ACCESS_DENIED, "The person denied the device.");
                default -> {
                    // approved
                }
            }
            if (poll.used()) {
                throw OAuthException.invalidGrant("The device code was used already.");
            }
            Instant authTime = poll.authTime();
            return issuer.inTransaction(conn -> devices.markUsed(conn, hash).chain(marked -> {
                if (!marked) {
                    throw OAuthException.invalidGrant("The device code was used already.");
                }
                List<String> amr = SignIn.amrOf(poll.signIn());
                return issuer.issue(conn, client, poll.personId(), poll.username(), poll.scopes(), UUID.randomUUID(), true,
                        authTime, poll.signIn(), amr, bounds).chain(issued -> issuer.withIdToken(issued, poll.scopes(), client, poll.personId(),
                                authTime, null, amr, poll.signIn() == null ? null : poll.signIn().sessionHash()));
            })).invoke(issued -> EVENTS.infof("event=token_issued grant=device_code client_id=%s person_id=%d",
                    client.clientId(), poll.personId()));
        });
    }
}
