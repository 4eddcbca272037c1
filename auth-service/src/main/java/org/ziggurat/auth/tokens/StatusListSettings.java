package org.ziggurat.auth.tokens;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** How long relying parties may keep a Status List Token (draft-ietf-oauth-status-list §13.7). */
@ConfigMapping(prefix = "ziggurat.auth.status-list")
public interface StatusListSettings {

    /**
     * The token's {@code ttl} and the answer's {@code Cache-Control} max-age: a relying party
     * fetches the list again after this long, so a revocation reaches it within this (plus up to
     * half a second: each replica builds a list at most twice a second).
     */
    @WithDefault("60s")
    Duration ttl();

    /** The token's {@code exp} after its {@code iat}: how long a relying party that cannot fetch a newer one may rely on it. */
    @WithDefault("1h")
    Duration lifetime();
}
