package org.ziggurat.directory.factors;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.problem.ProblemException;

import java.security.SecureRandom;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.List;

/**
 * Enrolling and managing a person's second factors, for auth-service's account page (which has
 * checked who the person is, and asked for the password again before a removal). Checking a code
 * at sign-in is {@code SecondFactorChecks}', which throttles it.
 */
@ApplicationScoped
public class SecondFactors {

    /** What the account page shows: the TOTP key's state, the recovery codes left, the latest events. */
    @RegisterForReflection
    public record FactorStatus(boolean twoFactorAuthentication, String totp, OffsetDateTime totpConfirmedAt,
            OffsetDateTime totpLastUsedAt, List<PasskeyView> passkeys, long recoveryCodesLeft, List<Event> events) {
    }

    /** A passkey as its owner sees it: by name, with when it was added and last used. */
    @RegisterForReflection
    public record PasskeyView(long id, String name, OffsetDateTime createdAt, OffsetDateTime lastUsedAt) {
    }

    /** A credential auth-service verified at registration (W3C WebAuthn), its bytes base64url. */
    @RegisterForReflection
    public record PasskeyRegistration(String credentialId, String publicKey, long signCount, boolean uvInitialized,
            boolean backupEligible, String transports, String name, String clientAddress) {
    }

    /** What an assertion is verified against: the credential's owner, COSE public key and counter. */
    @RegisterForReflection
    public record PasskeyCredential(long id, long personId, String username, String publicKey, long signCount,
            boolean uvInitialized, boolean backupEligible) {
    }

    @RegisterForReflection
    public record Event(String kind, String clientAddress, OffsetDateTime at, String device, String detail) {
    }

    /** A key being enrolled, as an authenticator app takes it (Base32), with the parameters it needs. */
    @RegisterForReflection
    public record TotpEnrolment(String secret, String algorithm, int digits, long period) {
    }

    @RegisterForReflection
    public record RecoveryCodes(List<String> recoveryCodes) {
    }

    /** A code that was checked: how ({@code otp} or {@code recovery}) and the recovery codes left. */
    public record Accepted(String method, long recoveryCodesLeft) {
    }

    /** The security log's newest entries that the account page shows. */
    static final int EVENTS_SHOWN = 50;

    private final FactorRepository repository;
    private final FactorSecrets secrets;
    private final SecureRandom random = new SecureRandom();

    SecondFactors(FactorRepository repository, FactorSecrets secrets) {
        this.repository = repository;
        this.secrets = secrets;
    }

    public Uni<FactorStatus> status(long personId) {
        return repository.status(personId).chain(status -> repository.events(personId, EVENTS_SHOWN).map(events ->
                new FactorStatus(status.any(), status.totp() == null ? "none"
                        : status.totpConfirmed() ? "enabled" : "pending",
                        status.totpConfirmed() ? status.totp().confirmedAt : null,
                        status.totpConfirmed() ? status.totp().lastUsedAt : null,
                        status.passkeys().stream().map(p -> new PasskeyView(p.id, p.name, p.createdAt, p.lastUsedAt)).toList(),
                        status.recoveryCodesLeft(),
                        events.stream().map(e -> new Event(e.kind, e.clientAddress, e.createdAt, e.device, e.detail)).toList())));
    }

    /** A new key to enrol (replacing one not confirmed); 409 when the person has a confirmed one. */
    public Uni<TotpEnrolment> startTotp(long personId) {
        byte[] key = secrets.randomBytes(TotpRules.KEY_BYTES);
        return repository.startTotp(personId, secrets.seal(personId, key)).map(started -> {
            if (!started) {
                throw ProblemException.conflict("A TOTP authenticator is set up already; remove it first.");
            }
            return new TotpEnrolment(TotpRules.base32(key), "SHA1", TotpRules.DIGITS, TotpRules.STEP.toSeconds());
        });
    }

    /**
     * The first code of a key being enrolled: the key counts from now on, and the answer is a new
     * set of recovery codes, shown this once. 422 when the code is not right; 409 when there is no
     * key being enrolled.
     */
    public Uni<RecoveryCodes> confirmTotp(long personId, String code, String clientAddress) {
        return repository.status(personId).chain(status -> {
            if (status.totp() == null || status.totpConfirmed()) {
                throw ProblemException.conflict("No TOTP authenticator is being set up: start again.");
            }
            byte[] key = secrets.open(personId, status.totp().secretSealed);
            long step = TotpRules.acceptedStep(key, code, Instant.now(), status.totp().lastStep);
            if (step == TotpRules.REFUSED) {
                throw ProblemException.invalidField("code", "is not the code the authenticator shows now");
            }
            List<String> codes = RecoveryCodeRules.generate(random);
            return repository.confirmTotp(personId, step, hashes(personId, codes), clientAddress).map(confirmed -> {
                if (!confirmed) {
                    throw ProblemException.conflict("The authenticator was set up or replaced meanwhile: start again.");
                }
                return new RecoveryCodes(codes);
            });
        });
    }

    /** 404 when the person has no TOTP authenticator. */
    public Uni<Void> removeTotp(long personId, String clientAddress) {
        return repository.removeTotp(personId, clientAddress).map(removed -> {
            if (!removed) {
                throw ProblemException.notFound("No TOTP authenticator is set up.");
            }
            return null;
        });
    }

    /** A new set, the old codes void; 409 for a person without a second factor. */
    public Uni<RecoveryCodes> regenerateRecoveryCodes(long personId, String clientAddress) {
        List<String> codes = RecoveryCodeRules.generate(random);
        return repository.regenerateRecoveryCodes(personId, hashes(personId, codes), clientAddress).map(done -> {
            if (!done) {
                throw ProblemException.conflict("Recovery codes come with a second factor; set one up first.");
            }
            return new RecoveryCodes(codes);
        });
    }

    /**
     * Checks a code at sign-in, unthrottled (the caller throttles): a TOTP code of the confirmed
     * key, once, or an unused recovery code, once; null when neither.
     */
    public Uni<Accepted> accept(long personId, String code, String clientAddress) {
        return repository.status(personId).chain(status -> {
            if (!status.any()) {
                return Uni.createFrom().nullItem();
            }
            if (TotpRules.normalized(code) != null) {
                if (!status.totpConfirmed()) {
                    return Uni.createFrom().nullItem();
                }
                byte[] key = secrets.open(personId, status.totp().secretSealed);
                long step = TotpRules.acceptedStep(key, code, Instant.now(), status.totp().lastStep);
                return step == TotpRules.REFUSED ? Uni.createFrom().nullItem()
                        : repository.acceptTotp(personId, step).map(accepted -> accepted
                                ? new Accepted("otp", status.recoveryCodesLeft()) : null);
            }
            String recovery = RecoveryCodeRules.normalized(code);
            return recovery == null ? Uni.createFrom().nullItem()
                    : repository.useRecoveryCode(personId, secrets.recoveryHash(personId, recovery), clientAddress)
                            .map(left -> left < 0 ? null : new Accepted("recovery", left));
        });
    }

    /**
     * Adds a passkey that auth-service verified: with the person's first factor, the answer is a
     * new set of recovery codes, shown this once (else none). 409 when the credential is registered.
     */
    public Uni<RecoveryCodes> addPasskey(long personId, PasskeyRegistration registration) {
        Passkey passkey = new Passkey();
        passkey.personId = personId;
        passkey.credentialId = bytes(registration.credentialId(), "credential_id");
        passkey.publicKey = bytes(registration.publicKey(), "public_key");
        passkey.signCount = Math.max(0, registration.signCount());
        passkey.uvInitialized = registration.uvInitialized();
        passkey.backupEligible = registration.backupEligible();
        passkey.transports = registration.transports();
        passkey.name = PasskeyNames.checked(registration.name());
        List<String> codes = RecoveryCodeRules.generate(random);
        return repository.addPasskey(passkey, hashes(personId, codes), registration.clientAddress()).map(made -> {
            if (made == null) {
                throw ProblemException.conflict("This passkey is registered already.");
            }
            return new RecoveryCodes(made ? codes : List.of());
        });
    }

    /** 404 when no passkey has the credential id; {@code username} names its owner. */
    public Uni<PasskeyCredential> passkey(String credentialId, java.util.function.LongFunction<Uni<String>> username) {
        return repository.passkey(bytes(credentialId, "credential_id")).chain(p -> {
            if (p == null) {
                throw ProblemException.notFound("No passkey has this credential id.");
            }
            return username.apply(p.personId).map(name -> new PasskeyCredential(p.id, p.personId, name,
                    Base64.getUrlEncoder().withoutPadding().encodeToString(p.publicKey), p.signCount, p.uvInitialized,
                    p.backupEligible));
        });
    }

    /** 409 when the counter did not move forward (a cloned authenticator, or a replay across replicas). */
    public Uni<Void> usePasskey(String credentialId, long signCount) {
        return repository.usePasskey(bytes(credentialId, "credential_id"), signCount).map(used -> {
            if (!used) {
                throw ProblemException.conflict("The passkey's signature counter did not move forward.");
            }
            return null;
        });
    }

    /** 404 when the person has no such passkey. */
    public Uni<Void> removePasskey(long personId, long passkeyId, String clientAddress) {
        return repository.removePasskey(personId, passkeyId, clientAddress).map(removed -> {
            if (!removed) {
                throw ProblemException.notFound("No such passkey.");
            }
            return null;
        });
    }

    private static byte[] bytes(String base64url, String field) {
        try {
            byte[] bytes = base64url == null ? null : Base64.getUrlDecoder().decode(base64url);
            if (bytes == null || bytes.length == 0 || bytes.length > 1024) {
                throw ProblemException.invalidField(field, "must be base64url, 1 to 1024 bytes");
            }
            return bytes;
        } catch (IllegalArgumentException e) {
            throw ProblemException.invalidField(field, "must be base64url, 1 to 1024 bytes");
        }
    }

    private List<byte[]> hashes(long personId, List<String> codes) {
        return codes.stream().map(code -> secrets.recoveryHash(personId, RecoveryCodeRules.normalized(code))).toList();
    }
}
