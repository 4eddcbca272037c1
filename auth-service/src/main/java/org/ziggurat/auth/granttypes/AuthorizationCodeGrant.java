package org.ziggurat.auth.granttypes;

import org.ziggurat.auth.tokens.SignIn;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.clients.ApplicationRow;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.oauth.IssuedTokens;
import org.ziggurat.auth.oauth.OAuthException;
import org.ziggurat.auth.oauth.OAuthForm;
import org.ziggurat.auth.oauth.Pkce;
import org.ziggurat.auth.tokens.AuthorizationCodeRepository;
import org.ziggurat.auth.tokens.TokenIssuer;
import org.ziggurat.auth.tokens.TokenRequest;
import org.ziggurat.auth.tokens.TokenRepository;

import java.time.Instant;

/**
 * authorization_code (RFC 6749 §4.1.3): single use, the same client and redirect URI, PKCE when the
 * code has a challenge. A used code presented again revokes whatever it issued (§4.1.2).
 */
@ApplicationScoped
public class AuthorizationCodeGrant implements TokenGrant {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");

    private final AuthorizationCodeRepository codes;
    private final TokenRepository tokens;
    private final TokenCrypto crypto;
    private final TokenIssuer issuer;

    AuthorizationCodeGrant(AuthorizationCodeRepository codes, TokenRepository tokens, TokenCrypto crypto, TokenIssuer issuer) {
        this.codes = codes;
        this.tokens = tokens;
        this.crypto = crypto;
        this.issuer = issuer;
    }

    @Override
    public String grantType() {
        return "authorization_code";
    }

    @Override
    public Issuing read(OAuthForm form, String callerAddress) {
        String code = form.require("code");
        String redirectUri = form.require("redirect_uri");
        String verifier = form.get("code_verifier");
        return (client, request) -> exchange(client, code, redirectUri, verifier, request);
    }

    Uni<IssuedTokens> exchange(ApplicationRow client, String code, String redirectUri, String verifier, TokenRequest request) {
        byte[] hash = crypto.hash(code);
        return issuer.inTransaction(conn -> codes.consume(conn, hash).chain(stored -> {
            if (stored == null) {
                return Uni.createFrom().<IssuedTokens>nullItem();
            }
            if (stored.expired()) {
                throw OAuthException.invalidGrant("The authorization code expired.");
            }
            if (stored.applicationId() == null || stored.applicationId() != client.id()) {
                throw OAuthException.invalidGrant("The authorization code was issued to another client.");
            }
            if (!stored.redirectUri().equals(redirectUri)) {
                throw OAuthException.invalidGrant("The redirect_uri does not match the authorization request.");
            }
            if (stored.codeChallenge() != null ? !Pkce.matches(verifier, stored.codeChallenge()) : verifier != null) {
                throw OAuthException.invalidGrant(stored.codeChallenge() == null
                        ? "This code was issued without a code_challenge; no code_verifier is expected."
                        : "The code_verifier does not match the code_challenge.");
            }
            if (stored.dpopJkt() != null && !stored.dpopJkt().equals(request.jkt())) {
                throw OAuthException.invalidGrant("The code is bound to a DPoP key (dpop_jkt): the proof must be signed with it.");
            }
            Instant authTime = stored.authTime();
            return issuer.issue(conn, client, stored.personId(), stored.username(), stored.scopes(), stored.family(), true,
                    authTime, stored.signIn(), SignIn.amrOf(stored.signIn()),
                    inheriting(TokenIssuer.bounds(client, request, stored.resources()), stored))
                    // Inside the transaction: no tokens without the ID token the answer owes.
                    .chain(issued -> issuer.withIdToken(issued, stored.scopes(), client, stored.personId(), authTime, stored.nonce(),
                            SignIn.amrOf(stored.signIn()), stored.signIn() == null ? null : stored.signIn().sessionHash(),
                            stored.idTokenClaims()));
        })).chain(issued -> issued != null ? Uni.createFrom().item(issued) : replayedOrUnknown(hash, client))
                .invoke(issued -> EVENTS.infof("event=token_issued grant=authorization_code client_id=%s token_id=%d",
                        client.clientId(), issued.accessTokenId()));
    }

    /** The API form's code: its authorization ends no later than the token that made it (its {@code authorizationEnds}). */
    private static org.ziggurat.auth.tokens.TokenBounds inheriting(org.ziggurat.auth.tokens.TokenBounds bounds,
            org.ziggurat.auth.tokens.AuthorizationCodeRepository.Code stored) {
        if (stored.authorizationEnds() == null) {
            return bounds;
        }
        return new org.ziggurat.auth.tokens.TokenBounds(bounds.audience(), bounds.grantAudience(), bounds.jkt(),
                bounds.refreshBound(), bounds.actor(), bounds.notAfter(),
                new org.ziggurat.auth.tokens.TokenRepository.Inherited(null, stored.authorizationEnds()));
    }

    /** A used code presented again: whatever it issued is revoked (RFC 6749 §4.1.2). */
    private Uni<IssuedTokens> replayedOrUnknown(byte[] hash, ApplicationRow client) {
        return codes.familyOfUsed(hash).chain(family -> {
            if (family == null) {
                return Uni.createFrom().failure(OAuthException.invalidGrant("The authorization code is not valid."));
            }
            return tokens.revokeFamily(family).invoke(count -> EVENTS.warnf(
                            "event=code_replay client_id=%s revoked_tokens=%d", client.clientId(), count))
                    .chain(count -> Uni.createFrom().failure(
                            OAuthException.invalidGrant("The authorization code was used already; its tokens are revoked.")));
        });
    }
}
