package org.ziggurat.directory.selfservice;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.accountdata.ErasureRepository;
import org.ziggurat.directory.factors.SecondFactors;
import org.ziggurat.directory.internal.PasswordChanges;
import org.ziggurat.directory.internal.PasswordChecks;
import org.ziggurat.directory.people.PeopleService;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.ScopeNames;

/**
 * A person's password and second factors, changed by the person through the API (what the account
 * pages do in a browser): only with the account scope, which a third party cannot obtain, and each
 * change after the current password, checked and throttled as a sign-in. A new password ends every
 * sign-in of the person at auth-service (a sign-out owed in the change's transaction) and the
 * tokens of the client-less password grant; applications the person gave access keep theirs.
 */
@ApplicationScoped
public class OwnCredentials {

    private final PeopleService people;
    private final PasswordChecks checks;
    private final PasswordChanges changes;
    private final SecondFactors factors;

    OwnCredentials(PeopleService people, PasswordChecks checks, PasswordChanges changes, SecondFactors factors) {
        this.people = people;
        this.checks = checks;
        this.changes = changes;
        this.factors = factors;
    }

    /** The caller's id after their password: 401 for a wrong one, 429 past the throttle. */
    private Uni<Long> confirmed(Caller caller, String password) {
        long personId = caller.requireUserWithScope(ScopeNames.ACCOUNT);
        return people.self(caller).chain(row -> checks.confirm(row.username(), personId, password)).replaceWith(personId);
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
