package org.ziggurat.platform.testing;

import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.ParseException;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.ziggurat.platform.token.PlatformClaims;
import org.ziggurat.platform.token.PlatformIdentityRules;
import org.ziggurat.platform.token.PlatformKeys;

import java.util.Set;

/**
 * Who may call a service's internal API, decided for the doubles of other services exactly as
 * the real services decide it (SmallRye JWT against the trusted JWKS, then PlatformIdentityRules'
 * own rule):
 * no token or one that fails verification is 401, a person's token is 403, and only a service
 * token signed by that service's own key passes. A double must be no laxer than its service.
 */
public final class InternalCallers {

    private InternalCallers() {
    }

    /** The refusal a service's internal API answers (401 or 403), or 0 when the call may go on. */
    public static int refusal(String platformToken) {
        return refusal(platformToken, null);
    }

    /**
     * As {@link #refusal(String)}, for an API that only one service may call ({@code onlyService};
     * null: any): another service's token is 403, as it is there.
     */
    public static int refusal(String platformToken, String onlyService) {
        if (platformToken == null || platformToken.isBlank()) {
            return 401;
        }
        JsonWebToken jwt;
        try {
            JWTAuthContextInfo info = new JWTAuthContextInfo(
                    PlatformTestKeys.dir().resolve(PlatformKeys.JWKS_FILE).toUri().toString(), TestTokens.ISSUER);
            info.setExpectedAudience(Set.of(TestTokens.AUDIENCE));
            jwt = new DefaultJWTParser(info).parse(platformToken);
        } catch (ParseException e) {
            return 401;
        }
        if (PlatformIdentityRules.refusal(jwt, PlatformTestKeys.GATEWAY) != null) {
            return 401; // signed by a key that may not say what the token says
        }
        // A person through the gateway is no service.
        Object service = jwt.getClaim(PlatformClaims.SERVICE);
        if (service == null) {
            return 403;
        }
        return onlyService == null || onlyService.equals(service.toString()) ? 0 : 403;
    }
}
