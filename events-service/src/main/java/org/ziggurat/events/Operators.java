package org.ziggurat.events;

import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.problem.ProblemException;
import org.ziggurat.platform.token.Caller;
import org.ziggurat.platform.token.ScopeNames;

import java.util.Set;

/** The platform's operators ({@link EventsConfig#operators}): who reads the audit stream and manages its webhooks. */
@ApplicationScoped
public class Operators {

    private final Set<Long> operators;

    Operators(EventsConfig config) {
        this.operators = config.operators().orElse(Set.of());
    }

    /** The operator's person id; 401 without a person, 403 without the admin scope or for anyone else. */
    public long require(Caller caller) {
        long person = caller.requireUserWithScope(ScopeNames.ADMIN);
        if (!operators.contains(person)) {
            throw ProblemException.forbidden("Only the platform's operators read the audit stream.");
        }
        return person;
    }
}
