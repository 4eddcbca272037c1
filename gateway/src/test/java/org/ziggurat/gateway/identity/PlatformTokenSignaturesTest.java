package org.ziggurat.gateway.identity;

import io.quarkus.test.junit.QuarkusTest;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.ziggurat.platform.token.PlatformKeys;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.util.Base64;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Platform tokens signed by AWS-LC where it loads, and verified by the services' JDK as before. */
@QuarkusTest
class PlatformTokenSignaturesTest {

    static boolean linuxX8664() {
        return System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64");
    }

    @Test
    void onLinuxX8664AwsLcBecomesTheFirstProviderSoonAfterStart() {
        // Without it the JDK signs, at four times the CPU; a dependency change must not lose it silently.
        if (linuxX8664()) {
            await().atMost(Duration.ofSeconds(10)).until(PlatformTokenSignatures::installed);
        }
    }

    @Test
    void aPlatformTokenSignedThenVerifiesWithTheJdkAndOnlyForItsPayload() throws Exception {
        if (linuxX8664()) {
            await().atMost(Duration.ofSeconds(10)).until(PlatformTokenSignatures::installed);
        }
        String token = GatewayIdentityTest.activeToken("public");
        String platformToken = given().header("Authorization", "Bearer " + token).get("/api/people/alice")
                .then().statusCode(200).extract().jsonPath().getString("headers.x-platform-token");
        RSAPublicKey key = PlatformKeys.publicKeyOf(PlatformKeys.readPrivateKey(Path.of(
                ConfigProvider.getConfig().getValue("ziggurat.platform-token.signing-key", String.class))));
        String[] parts = platformToken.split("\\.");
        assertTrue(verifiedByTheJdk(key, parts[0] + "." + parts[1], parts[2]));
        String otherPayload = Base64.getUrlEncoder().withoutPadding()
                .encodeToString("{\"sub\":\"43\"}".getBytes(StandardCharsets.UTF_8));
        assertFalse(verifiedByTheJdk(key, parts[0] + "." + otherPayload, parts[2]));
    }

    /** As the services' SmallRye JWT does: the JDK's own RSA, whatever this process installed first. */
    private static boolean verifiedByTheJdk(RSAPublicKey key, String signedPart, String signature) throws Exception {
        Signature verifier = Signature.getInstance("SHA256withRSA", "SunRsaSign");
        verifier.initVerify(key);
        verifier.update(signedPart.getBytes(StandardCharsets.US_ASCII));
        return verifier.verify(Base64.getUrlDecoder().decode(signature));
    }
}
