package org.ziggurat.directory.identities;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.factors.AccountEvents;
import org.ziggurat.directory.people.PersonLocks;
import org.ziggurat.directory.people.PersonRow;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

/**
 * Linked identities (Hibernate Reactive with Panache), beside plain SQL for the sign-in, which runs
 * at every upstream sign-in: it finds the link of that issuer, keeps what the provider said this
 * time and answers whose it is. A change of a person's links locks the person's row first, as a
 * change of their factors does, so that "the last way to sign in" is judged on what the other
 * change left. An ORCID iD is kept on a link only when no other person's link carries it (under a
 * lock of that iD, so two sign-ins at once cannot both keep it), and only as this sign-in says it:
 * a provider that no longer releases one clears it.
 */
@ApplicationScoped
public class LinkedIdentityRepository {

    /**
     * What a provider says of a person at a sign-in; {@code assurance} space-separated; {@code issuer}
     * the issuer that vouched ('' when the caller did not say).
     */
    public record Upstream(String provider, String subject, String displayName, String email, boolean emailVerified,
            String assurance, String orcid, String issuer) {

        String detail() {
            return provider + ": " + (displayName == null ? subject : displayName);
        }
    }

    /** Whose identity it is, whether the person has a second factor, and whether it is due after this sign-in. */
    @io.quarkus.runtime.annotations.RegisterForReflection
    public record Holder(long personId, String username, boolean secondFactor, boolean secondFactorDue) {
    }

    public enum LinkOutcome { LINKED, ALREADY_YOURS, SOMEONE_ELSES, TOO_MANY, NO_PERSON }

    public enum UnlinkOutcome { UNLINKED, NOT_FOUND, LAST_WAY_TO_SIGN_IN }

    private final Pool pool;
    private final org.ziggurat.directory.factors.AccountEventLog events;

    LinkedIdentityRepository(Pool pool, org.ziggurat.directory.factors.AccountEventLog events) {
        this.events = events;
        this.pool = pool;
    }

    /**
     * The identity's person, with what the provider says now kept; null when it is linked to nobody
     * through this issuer (a link of another issuer under the provider's id is another identity; a
     * link from before links recorded their issuer takes this one).
     */
    public Uni<Holder> signIn(Upstream upstream) {
        return pool.withTransaction(conn -> lockOrcid(conn, upstream.orcid()).chain(() -> conn.preparedQuery(
                        "UPDATE linked_identity li SET display_name = $3, email = $4, email_verified = $5, "
                        + "assurance = $6, orcid = " + ORCID_KEPT.formatted("$7", "li.person_id") + ", issuer = $8, last_used_at = now() "
                        + "FROM person p WHERE li.id = (SELECT id FROM linked_identity WHERE provider = $1 AND subject = $2 "
                        + "AND issuer IN ($8, '') ORDER BY issuer = $8 DESC LIMIT 1) AND p.id = li.person_id "
                        + "RETURNING p.id, p.username, p.second_factor_after_upstream, " + PersonRow.hasSecondFactor("p.id")
                        + " AS second_factor")
                .execute(Tuple.tuple(Arrays.asList(upstream.provider(), upstream.subject(), upstream.displayName(),
                        upstream.email(), upstream.emailVerified(), upstream.assurance(), upstream.orcid(), upstream.issuer())))))
                .map(rows -> {
                    if (rows.rowCount() == 0) {
                        return null;
                    }
                    Row row = rows.iterator().next();
                    boolean secondFactor = row.getBoolean("second_factor");
                    return new Holder(row.getLong("id"), row.getString("username"), secondFactor,
                            secondFactor && row.getBoolean("second_factor_after_upstream"));
                });
    }

    /** The iD a link may keep ({@code %1$s}) for its person ({@code %2$s}): none when another person's link carries it. */
    private static final String ORCID_KEPT = "CASE WHEN %1$s::text IS NULL OR EXISTS (SELECT 1 FROM linked_identity o "
            + "WHERE o.orcid = %1$s::text AND o.person_id <> %2$s) THEN NULL ELSE %1$s::text END";

    /** Serializes every write that may keep this ORCID iD (a transaction-scoped lock). */
    private static Uni<Void> lockOrcid(SqlConnection conn, String orcid) {
        return orcid == null ? Uni.createFrom().voidItem()
                : conn.preparedQuery("SELECT pg_advisory_xact_lock(hashtext('orcid ' || $1))").execute(Tuple.of(orcid))
                        .replaceWithVoid();
    }

    /** Links the identity to the person, who signed in to their account for it. */
    public Uni<LinkOutcome> link(long personId, Upstream upstream, String address) {
        return Panache.withTransaction(() -> PersonLocks.lock(personId).chain(found -> {
            if (!found) {
                return Uni.createFrom().item(LinkOutcome.NO_PERSON);
            }
            return lockOrcid(upstream.orcid()).chain(() -> LinkedIdentity.<LinkedIdentity>find(
                            "provider = ?1 and subject = ?2 and issuer in (?3, '')", upstream.provider(), upstream.subject(),
                            upstream.issuer())
                    .<LinkedIdentity>firstResult()).chain((LinkedIdentity existing) -> {
                        if (existing != null) {
                            return Uni.createFrom().item(existing.personId == personId ? LinkOutcome.ALREADY_YOURS
                                    : LinkOutcome.SOMEONE_ELSES);
                        }
                        return LinkedIdentity.count("personId = ?1", personId).chain(count -> {
                            if (count >= LinkedIdentities.MOST_PER_PERSON) {
                                return Uni.createFrom().item(LinkOutcome.TOO_MANY);
                            }
                            LinkedIdentity link = new LinkedIdentity();
                            link.personId = personId;
                            link.provider = upstream.provider();
                            link.subject = upstream.subject();
                            link.issuer = upstream.issuer();
                            keep(link, upstream);
                            link.lastUsedAt = OffsetDateTime.now(ZoneOffset.UTC);
                            return orcidOfOthers(upstream.orcid(), personId).invoke(taken -> {
                                if (taken) {
                                    link.orcid = null;
                                }
                            }).chain(() -> link.persist()).chain(() -> event(personId, AccountEvents.IDENTITY_LINKED, address,
                                    upstream.detail())).replaceWith(LinkOutcome.LINKED);
                        });
                    });
        }));
    }

    public Uni<List<LinkedIdentity>> of(long personId) {
        return Panache.withSession(() -> LinkedIdentity.list("personId = ?1 order by createdAt, id", personId));
    }

    /**
     * Removes a link, unless it is the person's last way to sign in: no password, no passkey (which
     * signs in alone) and no other link.
     */
    public Uni<UnlinkOutcome> unlink(long personId, long linkId, String address) {
        return Panache.withTransaction(() -> PersonLocks.lock(personId)
                .chain(() -> LinkedIdentity.find("id = ?1 and personId = ?2", linkId, personId).<LinkedIdentity>firstResult())
                .chain(link -> {
                    if (link == null) {
                        return Uni.createFrom().item(UnlinkOutcome.NOT_FOUND);
                    }
                    return otherWaysToSignIn(personId, linkId).chain(others -> others == 0
                            ? Uni.createFrom().item(UnlinkOutcome.LAST_WAY_TO_SIGN_IN)
                            : link.delete().chain(() -> event(personId, AccountEvents.IDENTITY_UNLINKED, address,
                                    link.provider + ": " + (link.displayName == null ? link.subject : link.displayName)))
                                    .replaceWith(UnlinkOutcome.UNLINKED));
                }));
    }

    /** In a new person's transaction (plain SQL): the identity they signed up with. */
    public static Uni<Void> insert(SqlConnection conn, long personId, Upstream upstream) {
        return lockOrcid(conn, upstream.orcid()).chain(() -> conn.preparedQuery("INSERT INTO linked_identity (person_id, provider, "
                        + "subject, display_name, email, email_verified, assurance, orcid, issuer, last_used_at) "
                        + "VALUES ($1, $2, $3, $4, $5, $6, $7, " + ORCID_KEPT.formatted("$8", "$1") + ", $9, now())")
                .execute(Tuple.tuple(Arrays.asList(personId, upstream.provider(), upstream.subject(), upstream.displayName(),
                        upstream.email(), upstream.emailVerified(), upstream.assurance(), upstream.orcid(), upstream.issuer()))))
                .chain(() -> conn.preparedQuery("INSERT INTO account_event (person_id, kind, detail) VALUES ($1, $2, $3)")
                        .execute(Tuple.of(personId, AccountEvents.IDENTITY_LINKED, shortened(upstream.detail()))))
                .replaceWithVoid();
    }

    /**
     * Whether the person is asked for their own second factor after an upstream sign-in; a change is
     * recorded in the security log and mailed, in its transaction. False for no such person.
     */
    public Uni<Boolean> setSecondFactorAfterUpstream(long personId, boolean required, String address) {
        return Panache.withTransaction(() -> Panache.getSession().chain(session -> session.createNativeQuery(
                        "SELECT second_factor_after_upstream FROM person WHERE id = ?1 FOR UPDATE", Boolean.class)
                .setParameter(1, personId).getResultList()
                .chain(before -> {
                    if (before.isEmpty()) {
                        return Uni.createFrom().item(false);
                    }
                    if (Boolean.valueOf(required).equals(before.get(0))) {
                        return Uni.createFrom().item(true);
                    }
                    return session.createNativeQuery("UPDATE person SET second_factor_after_upstream = ?2 WHERE id = ?1")
                            .setParameter(1, personId).setParameter(2, required).executeUpdate()
                            .chain(() -> event(personId, required ? AccountEvents.UPSTREAM_SECOND_FACTOR_ON
                                    : AccountEvents.UPSTREAM_SECOND_FACTOR_OFF, address, null))
                            .replaceWith(true);
                })));
    }

    public Uni<Boolean> secondFactorAfterUpstream(long personId) {
        return pool.preparedQuery("SELECT second_factor_after_upstream FROM person WHERE id = $1")
                .execute(Tuple.of(personId))
                .map(rows -> rows.rowCount() == 0 ? null : rows.iterator().next().getBoolean(0));
    }

    private static Uni<Long> otherWaysToSignIn(long personId, long linkId) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                        "SELECT (SELECT count(*) FROM person WHERE id = ?1 AND password_hash IS NOT NULL) "
                                + "+ (SELECT count(*) FROM passkey WHERE person_id = ?1) "
                                + "+ (SELECT count(*) FROM linked_identity WHERE person_id = ?1 AND id <> ?2)", Long.class)
                .setParameter(1, personId).setParameter(2, linkId).getSingleResult());
    }

    private static void keep(LinkedIdentity link, Upstream upstream) {
        link.displayName = upstream.displayName();
        link.email = upstream.email();
        link.emailVerified = upstream.emailVerified();
        link.assurance = upstream.assurance();
        link.orcid = upstream.orcid();
    }

    /** In a Panache transaction: the iD's lock (see {@link #lockOrcid(SqlConnection, String)}). */
    private static Uni<Void> lockOrcid(String orcid) {
        return orcid == null ? Uni.createFrom().voidItem() : Panache.getSession().chain(session -> session.createNativeQuery(
                "SELECT CAST(pg_advisory_xact_lock(hashtext('orcid ' || ?1)) AS text)", String.class)
                .setParameter(1, orcid).getSingleResult()).replaceWithVoid();
    }

    /** Whether another person's link carries the iD. */
    private static Uni<Boolean> orcidOfOthers(String orcid, long personId) {
        return orcid == null ? Uni.createFrom().item(false) : Panache.getSession().chain(session -> session.createNativeQuery(
                "SELECT EXISTS (SELECT 1 FROM linked_identity WHERE orcid = ?1 AND person_id <> ?2)", Boolean.class)
                .setParameter(1, orcid).setParameter(2, personId).getSingleResult());
    }

    /** The change recorded in the security log and, for those people are told of, its mail queued: one transaction. */
    private Uni<Void> event(long personId, String kind, String address, String detail) {
        return events.record(personId, kind, address, shortened(detail));
    }

    private static String shortened(String detail) {
        return detail == null || detail.length() <= 200 ? detail : detail.substring(0, 200);
    }
}
