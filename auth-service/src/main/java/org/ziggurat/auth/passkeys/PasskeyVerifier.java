package org.ziggurat.auth.passkeys;

import com.webauthn4j.WebAuthnManager;
import com.webauthn4j.converter.exception.DataConversionException;
import com.webauthn4j.converter.util.ObjectConverter;
import com.webauthn4j.credential.CredentialRecordImpl;
import com.webauthn4j.data.AuthenticationData;
import com.webauthn4j.data.AuthenticationParameters;
import com.webauthn4j.data.AuthenticatorTransport;
import com.webauthn4j.data.PublicKeyCredentialParameters;
import com.webauthn4j.data.PublicKeyCredentialType;
import com.webauthn4j.data.RegistrationData;
import com.webauthn4j.data.RegistrationParameters;
import com.webauthn4j.data.attestation.authenticator.AAGUID;
import com.webauthn4j.data.attestation.authenticator.AttestedCredentialData;
import com.webauthn4j.data.attestation.authenticator.AuthenticatorData;
import com.webauthn4j.data.attestation.authenticator.COSEKey;
import com.webauthn4j.data.attestation.statement.COSEAlgorithmIdentifier;
import com.webauthn4j.data.attestation.statement.NoneAttestationStatement;
import com.webauthn4j.data.client.Origin;
import com.webauthn4j.data.client.challenge.DefaultChallenge;
import com.webauthn4j.server.ServerProperty;
import com.webauthn4j.verifier.exception.VerificationException;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The WebAuthn checks (W3C Level 2 §7), by webauthn4j: a registration's attestation (none is
 * asked for, so its format is not trusted for more than the key) and an assertion's origin, relying
 * party, challenge, signature, user presence and verification, and counter. No state: the caller
 * gives what was stored and stores what comes back.
 */
public final class PasskeyVerifier {

    /** ES256, RS256 and EdDSA: what platform authenticators and security keys use. */
    public static final List<PublicKeyCredentialParameters> ALGORITHMS = List.of(
            new PublicKeyCredentialParameters(PublicKeyCredentialType.PUBLIC_KEY, COSEAlgorithmIdentifier.ES256),
            new PublicKeyCredentialParameters(PublicKeyCredentialType.PUBLIC_KEY, COSEAlgorithmIdentifier.RS256),
            new PublicKeyCredentialParameters(PublicKeyCredentialType.PUBLIC_KEY, COSEAlgorithmIdentifier.EdDSA));

    private static final ObjectConverter CONVERTER = new ObjectConverter();
    private static final WebAuthnManager MANAGER = WebAuthnManager.createNonStrictWebAuthnManager(CONVERTER);

    /** Why a ceremony's answer is refused; {@code getMessage()} says which check failed, for the log. */
    public static final class PasskeyRefused extends RuntimeException {
        public PasskeyRefused(String reason, Throwable cause) {
            super(reason, cause, false, false);
        }
    }

    /** Where ceremonies may come from and which relying party they are for. */
    public record RelyingParty(String id, Set<String> origins) {

        ServerProperty server(byte[] challenge) {
            return new ServerProperty(origins.stream().map(Origin::new).collect(Collectors.toSet()), id,
                    new DefaultChallenge(challenge));
        }
    }

    /** A credential registered: what is stored to verify its assertions. */
    public record Registered(byte[] credentialId, byte[] coseKey, long signCount, boolean userVerified,
            boolean backupEligible, String transports) {
    }

    /** A verified assertion: the credential, its new counter, and the authenticator's flags. */
    public record Asserted(byte[] credentialId, byte[] userHandle, long signCount, boolean userVerified,
            boolean backedUp) {
    }

    private PasskeyVerifier() {
    }

    /** The challenge a registration's client data answers; {@link PasskeyRefused} when it is no registration. */
    public static RegistrationData parseRegistration(String json) {
        try {
            RegistrationData data = MANAGER.parseRegistrationResponseJSON(json);
            if (data.getCollectedClientData() == null || data.getAttestationObject() == null) {
                throw new PasskeyRefused("not a registration", null);
            }
            return data;
        } catch (DataConversionException | IllegalArgumentException | NullPointerException e) {
            throw new PasskeyRefused("not a registration", e);
        }
    }

    public static byte[] challengeOf(RegistrationData data) {
        return data.getCollectedClientData().getChallenge().getValue();
    }

    /** Verifies a registration (user verification required: a passkey signs in alone). */
    public static Registered verifyRegistration(RegistrationData data, RelyingParty rp, byte[] challenge) {
        try {
            MANAGER.verify(data, new RegistrationParameters(rp.server(challenge), ALGORITHMS, true, true));
        } catch (VerificationException e) {
            throw new PasskeyRefused("registration refused: " + e.getClass().getSimpleName(), e);
        }
        AuthenticatorData<?> authenticator = data.getAttestationObject().getAuthenticatorData();
        AttestedCredentialData credential = authenticator.getAttestedCredentialData();
        Set<AuthenticatorTransport> transports = data.getTransports();
        return new Registered(credential.getCredentialId(), CONVERTER.getCborConverter().writeValueAsBytes(credential.getCOSEKey()),
                authenticator.getSignCount(), authenticator.isFlagUV(), authenticator.isFlagBE(),
                transports == null ? null : transports.stream().map(AuthenticatorTransport::getValue).sorted()
                        .collect(Collectors.joining(",")));
    }

    /** An assertion as the browser sent it; {@link PasskeyRefused} when it is none. */
    public static AuthenticationData parseAssertion(String json) {
        try {
            AuthenticationData data = MANAGER.parseAuthenticationResponseJSON(json);
            if (data.getCredentialId() == null || data.getCollectedClientData() == null) {
                throw new PasskeyRefused("not an assertion", null);
            }
            return data;
        } catch (DataConversionException | IllegalArgumentException | NullPointerException e) {
            throw new PasskeyRefused("not an assertion", e);
        }
    }

    public static byte[] challengeOf(AuthenticationData data) {
        return data.getCollectedClientData().getChallenge().getValue();
    }

    /**
     * Verifies an assertion against the stored credential: origin, relying party, challenge,
     * signature, user presence, user verification when {@code userVerificationRequired}, and a
     * counter past {@code storedCount} (unless the authenticator keeps none).
     */
    public static Asserted verifyAssertion(AuthenticationData data, RelyingParty rp, byte[] challenge, byte[] coseKey,
            long storedCount, boolean uvInitialized, boolean backupEligible, boolean userVerificationRequired) {
        COSEKey key;
        try {
            key = CONVERTER.getCborConverter().readValue(coseKey, COSEKey.class);
        } catch (DataConversionException | IllegalArgumentException e) {
            throw new PasskeyRefused("stored key unreadable", e);
        }
        var record = new CredentialRecordImpl(new NoneAttestationStatement(), uvInitialized, backupEligible, backupEligible,
                storedCount, new AttestedCredentialData(AAGUID.ZERO, data.getCredentialId(), key), null, null, null, null);
        try {
            MANAGER.verify(data, new AuthenticationParameters(rp.server(challenge), record, null, userVerificationRequired, true));
        } catch (VerificationException e) {
            throw new PasskeyRefused("assertion refused: " + e.getClass().getSimpleName(), e);
        }
        AuthenticatorData<?> authenticator = data.getAuthenticatorData();
        return new Asserted(data.getCredentialId(), data.getUserHandle(), authenticator.getSignCount(),
                authenticator.isFlagUV(), authenticator.isFlagBS());
    }
}
