package org.ziggurat.events;

import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.ScopeNames;

import java.util.Set;

/**
 * The platform's operators ({@link EventsConfig#operators}): who reads the audit stream and manages
 * its webhooks. An operator acts here with their own token (issued without a client, as the
 * password grant the platform's tools use gives it) and the admin scope: any application may ask a
 * person for the admin scope, so an application an operator authorized is no operator.
 */
@ApplicationScoped
public class Operators {

    private final Set<Long> operators;

    Operators(EventsConfig config) {
        this.operators = config.operators().orElse(Set.of());
    }

    /** Whether the person is one of the operators now (the configuration's list). */
    public boolean isOperator(long person) {
        return operators.contains(person);
    }

    /**
     * The operator's person id; 401 without a person, 403 without the admin scope, for anyone else,
     * and for an operator's token issued to an application.
     */
    public long require(Caller caller) {
        long person = caller.requireUserWithScope(ScopeNames.ADMIN);
        if (!operators.contains(person)) {
            throw ProblemException.forbidden("Only the platform's operators read the audit stream and manage its webhooks.");
        }
        if (caller.clientId().filter(id -> !id.isBlank()).isPresent()) {
            throw ProblemException.forbidden("The platform's operators read the audit stream and manage its webhooks with "
                    + "their own token (issued without a client), not one issued to an application: an application an "
                    + "operator authorized does not act as an operator.");
        }
        return person;
    }
}
