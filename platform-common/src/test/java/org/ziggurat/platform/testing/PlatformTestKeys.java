package org.ziggurat.platform.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import org.ziggurat.platform.token.PlatformKeys;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Real signing keys for a test run: one per platform signer, in a JWKS that the service under
 * test trusts, and one untrusted key ({@value #INTRUDER}) that is not in it.
 *
 * <p>Init argument {@code signer}: the name under which the service under test signs its own
 * calls (a service that calls no other leaves it out).
 */
public class PlatformTestKeys implements QuarkusTestResourceLifecycleManager {

    public static final String GATEWAY = "gateway";
    public static final String INTRUDER = "intruder";
    public static final String[] TRUSTED = {GATEWAY, "auth-service", "directory-service", "vocab-service",
            "events-service"};

    /** Per module (tests run with the module as working directory), so parallel modules never share. */
    public static Path dir() {
        return Path.of("target", "platform-test-keys").toAbsolutePath();
    }

    public static Path untrustedDir() {
        return dir().resolve("untrusted");
    }

    private String signer;

    @Override
    public void init(Map<String, String> initArgs) {
        signer = initArgs.get("signer");
    }

    @Override
    public Map<String, String> start() {
        try {
            for (String s : TRUSTED) {
                PlatformKeys.ensureKey(dir(), s);
            }
            Path jwks = PlatformKeys.writeJwks(dir());
            // The intruder has a well-formed key of its own, unknown to the receivers.
            PlatformKeys.ensureKey(untrustedDir(), INTRUDER);
            Map<String, String> config = new HashMap<>();
            config.put("mp.jwt.verify.publickey.location", jwks.toUri().toString());
            if (signer != null) {
                config.put("ziggurat.platform-token.signer", signer);
                config.put("ziggurat.platform-token.signing-key", dir().resolve(signer + PlatformKeys.PRIVATE_SUFFIX).toString());
            }
            return config;
        } catch (Exception e) {
            throw new IllegalStateException("Cannot create the platform test keys", e);
        }
    }

    @Override
    public void stop() {
        // Keys stay under target/ for the next test class group of the same module.
    }
}
