package org.ziggurat.directory.selfservice;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import io.vertx.core.json.JsonObject;
import org.ziggurat.directory.accountdata.AccountData;
import org.ziggurat.directory.accountdata.AccountDeletionRepository;
import org.ziggurat.directory.accountdata.ErasureRepository;
import org.ziggurat.directory.factors.SecondFactors;
import org.ziggurat.directory.internal.PasswordChanges;
import org.ziggurat.directory.internal.PasswordChecks;
import org.ziggurat.directory.people.EmailAddresses;
import org.ziggurat.directory.people.PeopleService;
import org.ziggurat.platform.input.EdgeInput;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.ScopeNames;

/**
 * A person's password, second factors, sign-in address, data and account, changed, exported or
 * deleted by the person through the API (what the account pages do in a browser): only with the
 * account scope, which a third party cannot obtain, and each after the current password, checked
 * and throttled as a sign-in (a token alone, if it leaked, moves no address and takes no data). A
 * new password ends every sign-in of the person at auth-service (a sign-out owed in the change's
 * transaction) and the tokens of the client-less password grant; applications the person gave
 * access keep theirs.
 */
@ApplicationScoped
public class OwnCredentials {

    /** A new sign-in address, and the current password that confirms it. */
    public record AddressChange(String email, String password) {
    }

    private final PeopleService people;
    private final PasswordChecks checks;
    private final PasswordChanges changes;
    private final SecondFactors factors;
    private final EmailAddresses addresses;
    private final AccountData data;

    OwnCredentials(PeopleService people, PasswordChecks checks, PasswordChanges changes, SecondFactors factors,
            EmailAddresses addresses, AccountData data) {
        this.people = people;
        this.checks = checks;
        this.changes = changes;
        this.factors = factors;
        this.addresses = addresses;
        this.data = data;
    }

    /**
     * The caller's id after their password: 403 without the account scope (or for an account with
     * no password), 401 for a wrong one, 429 past the throttle.
     */
    private Uni<Long> confirmed(Caller caller, String password) {
        long personId = caller.requireUserWithScope(ScopeNames.ACCOUNT);
        return people.self(caller).chain(row -> checks.confirm(row.username(), personId, password)).replaceWith(personId);
    }

    /** As above, with the password read from the body only once the caller's rights are checked (422 after 403). */
    private Uni<Long> confirmed(Caller caller, EdgeInput<String> password) {
        caller.requireUserWithScope(ScopeNames.ACCOUNT);
        return confirmed(caller, password.get());
    }

    /** PUT /user/email: a new sign-in address, after the current password. */
    public Uni<EmailAddresses.Changed> changeAddress(Caller caller, EdgeInput<AddressChange> change) {
        caller.requireUserWithScope(ScopeNames.ACCOUNT);
        AddressChange asked = change.get();
        return confirmed(caller, asked.password()).chain(personId -> addresses.change(personId, asked.email(), null));
    }

    /** POST /user/export: everything the platform holds about the person, after the current password. */
    public Uni<JsonObject> export(Caller caller, EdgeInput<String> password) {
        return confirmed(caller, password).chain(personId -> data.export(caller));
    }

    /** DELETE /user: the account, after the username typed again ({@code confirm}) and the current password. */
    public Uni<AccountDeletionRepository.Deleted> deleteAccount(Caller caller, String confirm, EdgeInput<String> password) {
        return confirmed(caller, password).chain(personId -> data.delete(caller, confirm));
    }

    public Uni<Void> changePassword(Caller caller, String current, String password) {
        return confirmed(caller, current).chain(personId -> changes.changeSigningOut(personId, password,
                (conn, person) -> ErasureRepository.signOut(conn, person.id(), person.username()))).replaceWithVoid();
    }

    public Uni<SecondFactors.FactorStatus> secondFactors(Caller caller) {
        return factors.status(caller.requireUserWithScope(ScopeNames.ACCOUNT));
    }

    public Uni<Void> removeAuthenticator(Caller caller, String password) {
        return confirmed(caller, password).chain(personId -> factors.removeTotp(personId, null));
    }

    public Uni<SecondFactors.RecoveryCodes> newRecoveryCodes(Caller caller, String password) {
        return confirmed(caller, password).chain(personId -> factors.regenerateRecoveryCodes(personId, null));
    }

    public Uni<Void> removePasskey(Caller caller, long passkeyId, String password) {
        return confirmed(caller, password).chain(personId -> factors.removePasskey(personId, passkeyId, null));
    }
}
