package org.ziggurat.auth.passkeys;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.Issuer;
import org.ziggurat.directory.client.DirectoryClient;

import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Passkeys and security keys (W3C WebAuthn Level 2): the options a page gives the browser, and the
 * checks of what comes back, against the credentials the directory keeps. A passkey signs a
 * person in alone (with user verification), or is the second factor after the password.
 */
@ApplicationScoped
public class Passkeys {

    private static final Logger EVENTS = Logger.getLogger("org.ziggurat.auth.security");
    private static final ObjectMapper JSON = new ObjectMapper();
    static final long TIMEOUT_MS = 120_000;

    /** A person a passkey signed in: by it, with the authenticator's backup state (a synced passkey). */
    public record Authenticated(long personId, String username, boolean synced) {
    }

    private final PasskeyChallenges challenges;
    private final DirectoryClient directory;
    private final PasskeyVerifier.RelyingParty party;

    Passkeys(PasskeyChallenges challenges, @RestClient DirectoryClient directory, AuthConfig config) {
        this.challenges = challenges;
        this.directory = directory;
        this.party = relyingParty(config);
    }

    /** The relying party: configured, else the issuer's host and origin. */
    static PasskeyVerifier.RelyingParty relyingParty(AuthConfig config) {
        URI issuer = URI.create(Issuer.of(config));
        String origin = issuer.getScheme() + "://" + issuer.getHost() + (issuer.getPort() > 0 ? ":" + issuer.getPort() : "");
        Set<String> origins = new LinkedHashSet<>(config.webauthnOrigins().orElse(List.of(origin)));
        return new PasskeyVerifier.RelyingParty(config.webauthnRpId().orElse(issuer.getHost()), origins);
    }

    /** For {@code PublicKeyCredential.parseCreationOptionsFromJSON}: a discoverable credential with user verification. */
    public String registrationOptions(long personId, String username, String platformName) {
        ObjectNode options = JSON.createObjectNode();
        options.putObject("rp").put("id", party.id()).put("name", platformName);
        options.putObject("user").put("id", b64(userHandle(personId))).put("name", username).put("displayName", username);
        options.put("challenge", b64(challenges.issue(PasskeyChallenges.Ceremony.REGISTER, personId)));
        ArrayNode algorithms = options.putArray("pubKeyCredParams");
        for (long alg : new long[] {-7, -257, -8}) {
            algorithms.addObject().put("type", "public-key").put("alg", alg);
        }
        options.put("timeout", TIMEOUT_MS).put("attestation", "none");
        options.putObject("authenticatorSelection").put("residentKey", "required").put("requireResidentKey", true)
                .put("userVerification", "required");
        return options.toString();
    }

    /**
     * For {@code PublicKeyCredential.parseRequestOptionsFromJSON}: any discoverable credential of
     * this relying party; user verification required to sign in alone, preferred as a second factor.
     */
    public String signInOptions(PasskeyChallenges.Ceremony ceremony, long personId) {
        ObjectNode options = JSON.createObjectNode();
        options.put("challenge", b64(challenges.issue(ceremony, personId)));
        options.put("rpId", party.id()).put("timeout", TIMEOUT_MS);
        options.put("userVerification", verificationRequired(ceremony) ? "required" : "preferred");
        options.putArray("allowCredentials");
        return options.toString();
    }

    /**
     * Verifies a registration and hands the credential to the directory: the recovery codes it
     * made when this is the person's first factor (else none). {@link PasskeyVerifier.PasskeyRefused}
     * when the answer does not pass, {@link DirectoryClient.Conflict} when the credential is registered.
     */
    public Uni<List<String>> register(long personId, String json, String name, String clientAddress) {
        var data = PasskeyVerifier.parseRegistration(json);
        byte[] challenge = PasskeyVerifier.challengeOf(data);
        return answered(challenge, PasskeyChallenges.Ceremony.REGISTER, personId).chain(() -> {
            PasskeyVerifier.Registered registered = PasskeyVerifier.verifyRegistration(data, party, challenge);
            return directory.addPasskey(personId, new DirectoryClient.PasskeyRegistration(b64(registered.credentialId()),
                    b64(registered.coseKey()), registered.signCount(), registered.userVerified(), registered.backupEligible(),
                    registered.transports(), name, clientAddress));
        }).invoke(() -> EVENTS.infof("event=second_factor_enabled method=passkey person_id=%d", personId))
                .map(DirectoryClient.RecoveryCodes::recoveryCodes);
    }

    /**
     * Verifies an assertion: the credential's owner (who must be {@code expectedPerson} when not
     * 0), its key and counter, the challenge of the ceremony; the counter moves forward once.
     */
    public Uni<Authenticated> authenticate(String json, PasskeyChallenges.Ceremony ceremony, long expectedPerson) {
        // A browser's answer that is no assertion at all fails the Uni, as any refusal does (not a
        // throw before there is one: the pages' recovery would not see it, and answer 500).
        return Uni.createFrom().deferred(() -> checked(json, ceremony, expectedPerson));
    }

    private Uni<Authenticated> checked(String json, PasskeyChallenges.Ceremony ceremony, long expectedPerson) {
        var data = PasskeyVerifier.parseAssertion(json);
        byte[] challenge = PasskeyVerifier.challengeOf(data);
        return directory.passkey(b64(data.getCredentialId()))
                .onFailure(DirectoryClient.NotFound.class).transform(e -> new PasskeyVerifier.PasskeyRefused("unknown credential", e))
                .chain(stored -> {
                    if (expectedPerson != 0 && stored.personId() != expectedPerson) {
                        throw new PasskeyVerifier.PasskeyRefused("another person's credential", null);
                    }
                    if (data.getUserHandle() != null && !java.util.Arrays.equals(data.getUserHandle(), userHandle(stored.personId()))) {
                        throw new PasskeyVerifier.PasskeyRefused("user handle of another person", null);
                    }
                    return answered(challenge, ceremony, expectedPerson).map(v -> PasskeyVerifier.verifyAssertion(data, party,
                                    challenge, Base64.getUrlDecoder().decode(stored.publicKey()), stored.signCount(),
                                    stored.uvInitialized(), stored.backupEligible(), verificationRequired(ceremony)))
                            .chain(asserted -> directory.usePasskey(b64(asserted.credentialId()),
                                            new DirectoryClient.PasskeyUse(asserted.signCount()))
                                    .onFailure(DirectoryClient.Conflict.class).transform(e ->
                                            new PasskeyVerifier.PasskeyRefused("counter did not move forward", e))
                                    .replaceWith(new Authenticated(stored.personId(), stored.username(), asserted.backedUp())));
                });
    }

    /** The challenge is ours, for this ceremony and person, unexpired, and answered for the first time. */
    private Uni<Void> answered(byte[] challenge, PasskeyChallenges.Ceremony ceremony, long personId) {
        if (!challenges.valid(challenge, ceremony, personId, Instant.now())) {
            return Uni.createFrom().failure(new PasskeyVerifier.PasskeyRefused("not a challenge of this ceremony", null));
        }
        return challenges.use(challenge).invoke(first -> {
            if (!first) {
                throw new PasskeyVerifier.PasskeyRefused("challenge answered before", null);
            }
        }).replaceWithVoid();
    }

    /** A passkey alone, or in place of the password, verifies its user; as a second factor, presence will do. */
    static boolean verificationRequired(PasskeyChallenges.Ceremony ceremony) {
        return ceremony != PasskeyChallenges.Ceremony.SECOND_FACTOR;
    }

    /** The WebAuthn user handle of a person: their id, 8 bytes (no name or address in it). */
    static byte[] userHandle(long personId) {
        return ByteBuffer.allocate(Long.BYTES).putLong(personId).array();
    }

    static String b64(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
