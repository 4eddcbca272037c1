package org.ziggurat.gateway.identity;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import io.quarkus.runtime.ImageMode;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;
import org.ziggurat.platform.token.PlatformTokenSigner;

import java.security.Security;

/**
 * AWS-LC (Amazon Corretto Crypto Provider) as this process's first security provider, where its
 * native library loads, so that SmallRye JWT signs platform tokens (RS256) with it. The gateway
 * signs one for each person whose access token it checks again, and the JDK's RSA is the larger
 * part of that work (bench/cpu-per-request --profile shows it). Nothing else in the gateway does
 * much cryptography;
 * what does (random request ids, TLS where configured) is what AWS-LC is made for.
 *
 * <p>Installed on a worker thread after start, as its self-tests take 0.3 s that a start need not
 * wait for; the JDK signs until then. The signer then reads its key again, through AWS-LC, so
 * that no signature converts a JDK key. Where the library does not load (a native image,
 * linux-aarch64, another OS) the JDK signs, as it always did.
 */
@Singleton
public class PlatformTokenSignatures {

    private static final Logger LOG = Logger.getLogger(PlatformTokenSignatures.class);

    void start(@Observes StartupEvent event, Vertx vertx, PlatformTokenSigner signer) {
        if (ImageMode.current().isNativeImage()) {
            LOG.info("platform tokens are signed with the JDK's providers (native image)");
            return;
        }
        vertx.executeBlocking(PlatformTokenSignatures::install, false).onComplete(installed -> {
            if (installed.succeeded() && installed.result()) {
                signer.reloadKey();
            }
        });
    }

    /** Whether AWS-LC is now this process's first provider. */
    static boolean install() {
        try {
            AmazonCorrettoCryptoProvider provider = AmazonCorrettoCryptoProvider.INSTANCE;
            if (provider.getLoadingError() != null) {
                LOG.infof("platform tokens are signed with the JDK's providers: %s", provider.getLoadingError().toString());
                return false;
            }
            provider.assertHealthy();
            AmazonCorrettoCryptoProvider.install();
            LOG.info("platform tokens are signed with AWS-LC (Amazon Corretto Crypto Provider)");
            return installed();
        } catch (Throwable unavailable) {
            // LinkageError and the like: no native library for this platform; or a failed self-test.
            LOG.infof("platform tokens are signed with the JDK's providers: %s", unavailable.toString());
            return false;
        }
    }

    static boolean installed() {
        return Security.getProviders()[0].getName().equals(AmazonCorrettoCryptoProvider.PROVIDER_NAME);
    }
}
