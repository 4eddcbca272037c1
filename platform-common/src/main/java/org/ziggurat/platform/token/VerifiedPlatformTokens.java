package org.ziggurat.platform.token;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import org.eclipse.microprofile.jwt.JsonWebToken;

import javax.crypto.SecretKey;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * SmallRye JWT's parser, remembering the platform tokens it verified until they expire. The
 * gateway sends the same signed token with every request of an access token for half a minute,
 * and verifying it again (parse, RSA signature, claims) was a seventh of a service's time per
 * request. Only verified tokens are remembered, by their exact text, never past their own expiry;
 * anything else goes to the parser every time.
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class VerifiedPlatformTokens implements JWTParser {

    private final DefaultJWTParser parser;

    VerifiedPlatformTokens(DefaultJWTParser parser) {
        this.parser = parser;
    }

    private final Cache<String, JsonWebToken> verified = Caffeine.newBuilder()
            .maximumSize(20_000)
            .expireAfter(new Expiry<String, JsonWebToken>() {
                @Override
                public long expireAfterCreate(String token, JsonWebToken jwt, long now) {
                    long left = jwt.getExpirationTime() - Instant.now().getEpochSecond();
                    return TimeUnit.SECONDS.toNanos(Math.max(0, left));
                }

                @Override
                public long expireAfterUpdate(String token, JsonWebToken jwt, long now, long current) {
                    return current;
                }

                @Override
                public long expireAfterRead(String token, JsonWebToken jwt, long now, long current) {
                    return current;
                }
            })
            .build();

    @Override
    public JsonWebToken parse(String token) throws ParseException {
        JsonWebToken known = verified.getIfPresent(token);
        if (known != null && known.getExpirationTime() > Instant.now().getEpochSecond()) {
            return known;
        }
        JsonWebToken jwt = parser.parse(token);
        verified.put(token, jwt);
        return jwt;
    }

    @Override
    public JsonWebToken parse(String token, JWTAuthContextInfo context) throws ParseException {
        return parser.parse(token, context);
    }

    @Override
    public JsonWebToken verify(String token, PublicKey key) throws ParseException {
        return parser.verify(token, key);
    }

    @Override
    public JsonWebToken verify(String token, SecretKey key) throws ParseException {
        return parser.verify(token, key);
    }

    @Override
    public JsonWebToken verify(String token, String secret) throws ParseException {
        return parser.verify(token, secret);
    }

    @Override
    public JsonWebToken decrypt(String token, PrivateKey key) throws ParseException {
        return parser.decrypt(token, key);
    }

    @Override
    public JsonWebToken decrypt(String token, SecretKey key) throws ParseException {
        return parser.decrypt(token, key);
    }

    @Override
    public JsonWebToken decrypt(String token, String secret) throws ParseException {
        return parser.decrypt(token, secret);
    }

    @Override
    public JsonWebToken parseOnly(String token) throws ParseException {
        return parser.parseOnly(token);
    }

    /** Whether this exact token was verified and is remembered (for tests). */
    public boolean remembers(String token) {
        return verified.getIfPresent(token) != null;
    }
}
