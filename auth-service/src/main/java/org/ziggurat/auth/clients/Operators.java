package org.ziggurat.auth.clients;

import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.ScopeNames;

/**
 * The platform's operators acting as such ({@code ziggurat.auth.operators}, {@link PlatformName}):
 * managing identity providers, marking applications verified, giving an application the platform's
 * own name. Any application may ask a person for the admin scope, so an operator acts only with
 * their own token (issued without a client, as the password grant the platform's tools use gives
 * it) and the admin scope: an application an operator authorized is no operator, and cannot mark
 * itself verified (after which it could ask anyone for the account scope).
 */
@ApplicationScoped
public class Operators {

    private final PlatformName platformName;

    Operators(PlatformName platformName) {
        this.platformName = platformName;
    }

    /**
     * The operator's person id; 401 without a person, 403 (a problem saying why) without the admin
     * scope, for anyone but an operator, and for an operator's token issued to an application.
     * {@code what}: what only they do, as in "Only the platform's operators {@code what}."
     */
    public long require(Caller caller, String what) {
        long person = caller.requireUserWithScope(ScopeNames.ADMIN);
        if (!platformName.isOperator(person)) {
            throw ProblemException.forbidden("Only the platform's operators " + what + ".");
        }
        if (throughAnApplication(caller)) {
            throw ProblemException.forbidden("The platform's operators " + what + " with their own token (issued without a "
                    + "client), not one issued to an application: an application an operator authorized does not act as an "
                    + "operator.");
        }
        return person;
    }

    /** Whether the caller is an operator acting with their own token (what {@link #require} lets through). */
    public boolean actsAsOperator(Caller caller) {
        return caller.userId().filter(platformName::isOperator).isPresent() && caller.hasScope(ScopeNames.ADMIN)
                && !throughAnApplication(caller);
    }

    private static boolean throughAnApplication(Caller caller) {
        return caller.clientId().filter(id -> !id.isBlank()).isPresent();
    }
}
