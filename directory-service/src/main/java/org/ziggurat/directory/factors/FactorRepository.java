package org.ziggurat.directory.factors;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.people.PersonLocks;
import org.ziggurat.directory.people.PersonRow;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * A person's second factors and recovery codes, and the record of their changes (Hibernate
 * Reactive with Panache). Every change that must happen once, whichever replica asks (a code
 * accepted, a recovery code used), is one conditional UPDATE; a change of several rows is one
 * transaction with its {@link AccountEvent}. A change of a person's factors first locks the
 * person's row, so that two at once are taken one after the other, and ends by setting
 * {@code person.two_factor_enabled} from the factors as they then are: the flag that the hot reads
 * (/user, every person) take, which therefore never disagrees with the factors. The mail that
 * tells the person of a change joins the outbox in the change's transaction.
 */
@ApplicationScoped
public class FactorRepository {

    private final AccountEventLog events;

    FactorRepository(AccountEventLog events) {
        this.events = events;
    }

    /** What a person has: a TOTP key (confirmed or being enrolled), passkeys, and unused recovery codes. */
    public record Status(TotpFactor totp, List<Passkey> passkeys, long recoveryCodesLeft) {

        public boolean totpConfirmed() {
            return totp != null && totp.confirmedAt != null;
        }

        /** Whether the person has a second factor at all. */
        public boolean any() {
            return totpConfirmed() || !passkeys.isEmpty();
        }
    }

    public Uni<Status> status(long personId) {
        return Panache.withSession(() -> TotpFactor.<TotpFactor>findById(personId)
                .chain(totp -> Passkey.<Passkey>list("personId = ?1 order by createdAt, id", personId)
                        .chain(passkeys -> RecoveryCode.count("personId = ?1 and usedAt is null", personId)
                                .map(left -> new Status(totp, passkeys, left)))));
    }

    /**
     * A new key for the person to enrol, replacing one not yet confirmed; false when a confirmed
     * one exists (it must be removed first).
     */
    public Uni<Boolean> startTotp(long personId, byte[] sealed) {
        return Panache.withTransaction(() -> TotpFactor.<TotpFactor>findById(personId).chain(existing -> {
            if (existing != null && existing.confirmedAt != null) {
                return Uni.createFrom().item(false);
            }
            TotpFactor factor = existing != null ? existing : new TotpFactor();
            factor.personId = personId;
            factor.secretSealed = sealed;
            factor.lastStep = 0;
            return factor.persist().replaceWith(true);
        }));
    }

    /**
     * The enrolment's first good code: the factor counts from now, its step is used, and a new set
     * of recovery codes replaces any old one. False when there is no key being enrolled (another
     * request confirmed it, or it was replaced) or the step was used.
     */
    public Uni<Boolean> confirmTotp(long personId, long step, List<byte[]> recoveryHashes, String address) {
        return Panache.withTransaction(() -> PersonLocks.lock(personId).chain(() -> TotpFactor.update("confirmedAt = ?1, lastStep = ?2, lastUsedAt = ?1 "
                        + "where personId = ?3 and confirmedAt is null and lastStep < ?2", now(), step, personId)
                .chain(updated -> updated == 0 ? Uni.createFrom().item(false)
                        : replaceCodes(personId, recoveryHashes)
                                .chain(() -> event(personId, AccountEvents.TOTP_ENABLED, address))
                                .chain(() -> syncFlag(personId))
                                .replaceWith(true))));
    }

    /** Uses a step's code of a confirmed key: true once, for the first caller, on any replica. */
    public Uni<Boolean> acceptTotp(long personId, long step) {
        return Panache.withTransaction(() -> TotpFactor.update("lastStep = ?1, lastUsedAt = ?2 "
                        + "where personId = ?3 and confirmedAt is not null and lastStep < ?1", step, now(), personId)
                .map(updated -> updated == 1));
    }

    /** Uses a recovery code once: the codes left after it, or -1 when it is unknown or used. */
    public Uni<Long> useRecoveryCode(long personId, byte[] hash, String address) {
        return Panache.withTransaction(() -> RecoveryCode.update("usedAt = ?1 where personId = ?2 and codeHash = ?3 "
                        + "and usedAt is null", now(), personId, hash)
                .chain(updated -> updated == 0 ? Uni.createFrom().item(-1L)
                        : event(personId, AccountEvents.RECOVERY_CODE_USED, address)
                                .chain(() -> RecoveryCode.count("personId = ?1 and usedAt is null", personId))));
    }

    /** Removes the TOTP key, and with the last factor the recovery codes; false when there was none. */
    public Uni<Boolean> removeTotp(long personId, String address) {
        return Panache.withTransaction(() -> PersonLocks.lock(personId)
                .chain(() -> TotpFactor.delete("personId = ?1 and confirmedAt is not null", personId))
                .chain(deleted -> deleted == 0 ? Uni.createFrom().item(false)
                        : codesGoWithTheLastFactor(personId)
                                .chain(() -> event(personId, AccountEvents.TOTP_REMOVED, address))
                                .chain(() -> syncFlag(personId))
                                .replaceWith(true)));
    }

    /**
     * Adds a passkey; with the person's first factor, a new set of recovery codes. Null when the
     * credential is registered already (to anyone), else whether recovery codes were made.
     */
    public Uni<Boolean> addPasskey(Passkey passkey, List<byte[]> recoveryHashes, String address) {
        long personId = passkey.personId;
        return Panache.withTransaction(() -> PersonLocks.lock(personId)
                .chain(() -> Passkey.count("credentialId = ?1", passkey.credentialId)).chain(taken -> {
                    if (taken > 0) {
                        return Uni.createFrom().<Boolean>nullItem();
                    }
                    return factorCount(personId).chain(before -> passkey.persist()
                            .chain(() -> before == 0 ? replaceCodes(personId, recoveryHashes) : Uni.createFrom().voidItem())
                            .chain(() -> event(personId, AccountEvents.PASSKEY_ADDED, address))
                            .chain(() -> syncFlag(personId))
                            .replaceWith(before == 0));
                }));
    }

    /** The passkey of a credential id; null when none. */
    public Uni<Passkey> passkey(byte[] credentialId) {
        return Panache.withSession(() -> Passkey.<Passkey>find("credentialId = ?1", credentialId).firstResult());
    }

    /**
     * Records an assertion's counter, once: true when the counter moved forward (or the
     * authenticator keeps none: both zero), false when it did not, which a cloned authenticator shows.
     */
    public Uni<Boolean> usePasskey(byte[] credentialId, long signCount) {
        return Panache.withTransaction(() -> Passkey.update("signCount = ?1, lastUsedAt = ?2 where credentialId = ?3 "
                        + "and (signCount < ?1 or (signCount = 0 and ?1 = 0))", signCount, now(), credentialId)
                .map(updated -> updated == 1));
    }

    /** Removes a passkey of the person, and with the last factor the recovery codes; false when there was none. */
    public Uni<Boolean> removePasskey(long personId, long passkeyId, String address) {
        return Panache.withTransaction(() -> PersonLocks.lock(personId)
                .chain(() -> Passkey.delete("id = ?1 and personId = ?2", passkeyId, personId))
                .chain(deleted -> deleted == 0 ? Uni.createFrom().item(false)
                        : codesGoWithTheLastFactor(personId)
                                .chain(() -> event(personId, AccountEvents.PASSKEY_REMOVED, address))
                                .chain(() -> syncFlag(personId))
                                .replaceWith(true)));
    }

    /** {@code person.two_factor_enabled} from the factors as this transaction sees them (written so far, flushed). */
    private static Uni<Void> syncFlag(long personId) {
        return Panache.getSession().chain(session -> session.flush().chain(() -> session.createNativeQuery(
                        "UPDATE person SET two_factor_enabled = " + PersonRow.hasSecondFactor("person.id") + " WHERE id = ?1")
                .setParameter(1, personId).executeUpdate())).replaceWithVoid();
    }

    private static Uni<Long> factorCount(long personId) {
        return TotpFactor.count("personId = ?1 and confirmedAt is not null", personId)
                .chain(totp -> Passkey.count("personId = ?1", personId).map(passkeys -> totp + passkeys));
    }

    private static Uni<Void> codesGoWithTheLastFactor(long personId) {
        return factorCount(personId).chain(left -> left > 0 ? Uni.createFrom().voidItem()
                : RecoveryCode.delete("personId = ?1", personId).replaceWithVoid());
    }

    /** A new set of recovery codes for a person who has a second factor; false when they have none. */
    public Uni<Boolean> regenerateRecoveryCodes(long personId, List<byte[]> hashes, String address) {
        return Panache.withTransaction(() -> factorCount(personId)
                .chain(factors -> factors == 0 ? Uni.createFrom().item(false)
                        : replaceCodes(personId, hashes)
                                .chain(() -> event(personId, AccountEvents.RECOVERY_CODES_REGENERATED, address))
                                .replaceWith(true)));
    }

    /** The person's latest account events, newest first. */
    public Uni<List<AccountEvent>> events(long personId, int limit) {
        return Panache.withSession(() -> AccountEvent.<AccountEvent>find("personId = ?1 order by createdAt desc, id desc",
                personId).page(0, limit).list());
    }

    private static Uni<Void> replaceCodes(long personId, List<byte[]> hashes) {
        List<RecoveryCode> codes = hashes.stream().map(hash -> {
            RecoveryCode code = new RecoveryCode();
            code.personId = personId;
            code.codeHash = hash;
            return code;
        }).toList();
        return RecoveryCode.delete("personId = ?1", personId).chain(() -> RecoveryCode.persist(codes));
    }

    /** The change recorded, and its mail to the person queued, in the caller's transaction. */
    private Uni<Void> event(long personId, String kind, String address) {
        return events.record(personId, kind, address, null);
    }

    private static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC);
    }
}
