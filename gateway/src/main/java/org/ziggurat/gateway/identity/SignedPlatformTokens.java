package org.ziggurat.gateway.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.ziggurat.platform.token.PlatformTokenSigner;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Platform tokens, each signed once and reused by the answers of later introspections that say the
 * same (STYLE: sign once, keep it for its lifetime). Signing at every re-introspection was a fifth
 * of the gateway's CPU under GET /user with 1,000 tokens (RSA-2048, over a millisecond each). The
 * claims name no access token, so tokens of one person, client, scopes and class of sign-in
 * ({@code acr}, RFC 9470) share one. A token is handed out during the first half of its life
 * ({@code reuse}), so that each answer that carries it still has half of it, at least, to be used in.
 */
final class SignedPlatformTokens {

    /** A platform token and when it expires. */
    record Signed(String token, long expiresAtEpochSecond) {
    }

    private final PlatformTokenSigner signer;
    private final Cache<String, Signed> signed;

    SignedPlatformTokens(PlatformTokenSigner signer, Duration reuse, long most) {
        this.signer = signer;
        this.signed = Caffeine.newBuilder().executor(Runnable::run).maximumSize(most).expireAfterWrite(reuse).build();
    }

    /** The platform token stating these claims. */
    Signed of(long userId, String username, List<String> scopes, String clientId, String acr) {
        String claims = userId + "\n" + username + "\n" + String.join(" ", scopes) + "\n" + clientId + "\n" + acr;
        Signed known = signed.getIfPresent(claims);
        if (known != null) {
            return known;
        }
        long now = Instant.now().getEpochSecond();
        Signed fresh = new Signed(signer.signUser(userId, username, scopes, clientId, acr), now + signer.lifetimeSeconds());
        signed.put(claims, fresh);
        return fresh;
    }
}
