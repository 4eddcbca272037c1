package org.ziggurat.directory.people;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * A person's row, locked until the current (Hibernate Reactive) transaction ends: the changes of
 * one person's second factors and linked identities are taken one after the other, so that each
 * judges what the other left ("the last way to sign in", the person's factor flag).
 */
public final class PersonLocks {

    private PersonLocks() {
    }

    /** False when there is no such person. */
    public static Uni<Boolean> lock(long personId) {
        return Panache.getSession().chain(session -> session.createNativeQuery("SELECT id FROM person WHERE id = ?1 FOR UPDATE")
                .setParameter(1, personId).getResultList()).map(rows -> !rows.isEmpty());
    }
}
