package org.ziggurat.auth.passkeys;

import com.webauthn4j.converter.util.ObjectConverter;
import com.webauthn4j.data.attestation.authenticator.EC2COSEKey;
import com.webauthn4j.data.attestation.statement.COSEAlgorithmIdentifier;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;

/**
 * An authenticator for the tests, made of the JDK's P-256 and the bytes WebAuthn §6.1 defines: it
 * signs assertions as a platform authenticator does, with the flags, counter, origin and challenge
 * a test chooses (each check is then seen to refuse what it must).
 */
final class TestAuthenticator {

    static final int UP = 0x01;
    static final int UV = 0x04;
    static final int BE = 0x08;
    static final int BS = 0x10;

    final KeyPair keys;
    final byte[] credentialId;

    TestAuthenticator(byte[] credentialId) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        this.keys = generator.generateKeyPair();
        this.credentialId = credentialId;
    }

    /** The COSE key as the directory stores it. */
    byte[] coseKey() {
        return new ObjectConverter().getCborConverter().writeValueAsBytes(
                EC2COSEKey.create((ECPublicKey) keys.getPublic(), COSEAlgorithmIdentifier.ES256));
    }

    /** An assertion as {@code PublicKeyCredential.toJSON()} gives it. */
    String assertion(String rpId, String origin, byte[] challenge, int flags, long counter, byte[] userHandle) throws Exception {
        byte[] rpIdHash = MessageDigest.getInstance("SHA-256").digest(rpId.getBytes(StandardCharsets.UTF_8));
        byte[] authenticatorData = ByteBuffer.allocate(37).put(rpIdHash).put((byte) flags).putInt((int) counter).array();
        byte[] clientData = ("{\"type\":\"webauthn.get\",\"challenge\":\"" + b64(challenge) + "\",\"origin\":\"" + origin
                + "\",\"crossOrigin\":false}").getBytes(StandardCharsets.UTF_8);
        byte[] clientDataHash = MessageDigest.getInstance("SHA-256").digest(clientData);
        Signature signer = Signature.getInstance("SHA256withECDSA");
        signer.initSign(keys.getPrivate());
        signer.update(authenticatorData);
        signer.update(clientDataHash);
        byte[] signature = signer.sign();
        return "{\"id\":\"" + b64(credentialId) + "\",\"rawId\":\"" + b64(credentialId) + "\",\"type\":\"public-key\","
                + "\"authenticatorAttachment\":\"platform\",\"clientExtensionResults\":{},\"response\":{"
                + "\"clientDataJSON\":\"" + b64(clientData) + "\",\"authenticatorData\":\"" + b64(authenticatorData)
                + "\",\"signature\":\"" + b64(signature) + "\"" + (userHandle == null ? "" : ",\"userHandle\":\"" + b64(userHandle) + "\"")
                + "}}";
    }

    static String b64(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
