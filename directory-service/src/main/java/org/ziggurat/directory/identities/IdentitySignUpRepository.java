package org.ziggurat.directory.identities;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.identities.LinkedIdentityRepository.Upstream;

/**
 * New accounts made at a provider's sign-in that wait for their address to be proven
 * ({@code identity_sign_up}): what is taken already of one, the pending account kept with the mail
 * of its link (a limited number of links an hour to one address), and the link's use, once, in the
 * new account's transaction.
 */
@ApplicationScoped
public class IdentitySignUpRepository {

    private final Pool pool;

    IdentitySignUpRepository(Pool pool) {
        this.pool = pool;
    }

    /** A new account through a provider, waiting for its address to be proven: what the person chose, and the identity. */
    public record PendingSignUp(String username, String displayName, String email, Upstream upstream) {
    }

    /** What is taken already of a new account's name, address and identity. */
    public record Taken(boolean name, boolean address, boolean identity) {
    }

    /** What of the new account is taken already. */
    public Uni<Taken> taken(String username, String email, Upstream upstream) {
        return pool.preparedQuery("SELECT EXISTS (SELECT 1 FROM namespace WHERE name_key = $1) AS name, "
                        + "EXISTS (SELECT 1 FROM person WHERE lower(email) = lower($2)) AS address, "
                        + "EXISTS (SELECT 1 FROM linked_identity WHERE provider = $3 AND subject = $4 AND issuer IN ($5, '')) AS identity")
                .execute(Tuple.of(username, email, upstream.provider(), upstream.subject(), upstream.issuer()))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return new Taken(row.getBoolean("name"), row.getBoolean("address"), row.getBoolean("identity"));
                });
    }

    /**
     * Keeps a new account that waits for its address (24 hours, by its token's hash) and queues the
     * mail with the link, in one transaction, unless the address received {@code perHour} such links
     * within the hour (then false, and nothing kept: counted under a lock of the address, so across
     * replicas). Nothing exists of the account until the link is used.
     */
    public Uni<Boolean> holdSignUp(byte[] tokenHash, PendingSignUp pending, String subject, String body, int perHour) {
        Upstream u = pending.upstream();
        io.vertx.core.json.JsonObject identity = new io.vertx.core.json.JsonObject().put("provider", u.provider())
                .put("subject", u.subject()).put("display_name", u.displayName()).put("email", u.email())
                .put("email_verified", u.emailVerified()).put("assurance", u.assurance()).put("orcid", u.orcid())
                .put("issuer", u.issuer());
        // The locks first, the counts in a statement of its own: its snapshot sees what the locks' holders wrote.
        // Per address (its owner is not flooded), and per identity at the provider (one identity mails few addresses).
        return pool.withTransaction(conn -> sentWithinTheHour(conn, pending.email(), u)
                .chain(sent -> sent >= perHour ? Uni.createFrom().item(false)
                        : conn.preparedQuery("INSERT INTO identity_sign_up (token_hash, username, display_name, email, identity, "
                                        + "expires_at) VALUES ($1, $2, $3, $4, $5, now() + interval '24 hours')")
                                .execute(Tuple.of(io.vertx.core.buffer.Buffer.buffer(tokenHash), pending.username(),
                                        pending.displayName(), pending.email(), identity))
                                .chain(() -> conn.preparedQuery("INSERT INTO mail_outbox (person_id, kind, recipient, subject, body) "
                                                + "VALUES (NULL, 'identity_sign_up', $1, $2, $3)")
                                        .execute(Tuple.of(pending.email(), subject, body)))
                                .replaceWith(true)));
    }

    /**
     * The sign-ups asked within the hour for the address and by the identity, the larger count, under
     * locks of both (so across replicas). Every sign-up that mails something is a row, whether it
     * waits for its link or told an account's owner (then used at once): the counts, and the time
     * they take, are the same for an address with an account and one without.
     */
    private static Uni<Long> sentWithinTheHour(SqlConnection conn, String email, Upstream upstream) {
        // The locks first, the counts in a statement of their own: its snapshot sees what the locks' holders wrote.
        return conn.preparedQuery("SELECT pg_advisory_xact_lock(hashtext('identity sign-up ' || lower($1))), "
                        + "pg_advisory_xact_lock(hashtext('identity sign-up by ' || $2 || ' ' || $3))")
                .execute(Tuple.of(email, upstream.provider(), upstream.subject()))
                .chain(() -> conn.preparedQuery("SELECT greatest((SELECT count(*) FROM identity_sign_up WHERE lower(email) = "
                        + "lower($1) AND created_at > now() - interval '1 hour'), (SELECT count(*) FROM identity_sign_up WHERE "
                        + "identity->>'provider' = $2 AND identity->>'subject' = $3 AND created_at > now() - interval '1 hour'))"
                        + " AS sent").execute(Tuple.of(email, upstream.provider(), upstream.subject())))
                .map(rows -> rows.iterator().next().getLong("sent"));
    }

    /**
     * Mails an account's address that a new account through a provider asked for it (nothing is
     * made), within the same limits as {@link #holdSignUp}: false past them, as for a free address,
     * so that the answer tells nobody whether the address has an account.
     */
    public Uni<Boolean> noticeTakenAddress(String email, Upstream upstream, String subject, String body, int perHour) {
        io.vertx.core.json.JsonObject identity = new io.vertx.core.json.JsonObject().put("provider", upstream.provider())
                .put("subject", upstream.subject()).put("issuer", upstream.issuer());
        byte[] nothing = new byte[32];
        new java.security.SecureRandom().nextBytes(nothing);
        return pool.withTransaction(conn -> sentWithinTheHour(conn, email, upstream)
                .chain(sent -> sent >= perHour ? Uni.createFrom().item(false)
                        // Counted as a sign-up, used at once: no link makes anything of it.
                        : conn.preparedQuery("INSERT INTO identity_sign_up (token_hash, username, display_name, email, identity, "
                                        + "expires_at, used_at) VALUES ($1, '', '', $2, $3, now(), now())")
                                .execute(Tuple.of(io.vertx.core.buffer.Buffer.buffer(nothing), email, identity))
                                .chain(() -> conn.preparedQuery("INSERT INTO mail_outbox (person_id, kind, recipient, subject, body) "
                                        + "SELECT id, 'identity_sign_up_taken', email, $2, $3 FROM person WHERE lower(email) = lower($1)")
                                        .execute(Tuple.of(email, subject, body)))
                                .replaceWith(true)));
    }

    /** The sign-up a live, unused token holds; null when none. */
    public Uni<PendingSignUp> pendingSignUp(byte[] tokenHash) {
        return pool.preparedQuery("SELECT username, display_name, email, identity FROM identity_sign_up WHERE token_hash = $1 "
                        + "AND used_at IS NULL AND expires_at > now()")
                .execute(Tuple.of(io.vertx.core.buffer.Buffer.buffer(tokenHash)))
                .map(rows -> {
                    if (rows.rowCount() == 0) {
                        return null;
                    }
                    Row row = rows.iterator().next();
                    io.vertx.core.json.JsonObject i = row.getJsonObject("identity");
                    return new PendingSignUp(row.getString("username"), row.getString("display_name"), row.getString("email"),
                            new Upstream(i.getString("provider"), i.getString("subject"), i.getString("display_name"),
                                    i.getString("email"), i.getBoolean("email_verified", false), i.getString("assurance", ""),
                                    i.getString("orcid"), i.getString("issuer", "")));
                });
    }

    /** Uses the token, once, in the new account's transaction: false when it was used or expired meanwhile. */
    public static Uni<Boolean> useSignUp(SqlConnection conn, byte[] tokenHash) {
        return conn.preparedQuery("UPDATE identity_sign_up SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL "
                        + "AND expires_at > now()").execute(Tuple.of(io.vertx.core.buffer.Buffer.buffer(tokenHash)))
                .map(rows -> rows.rowCount() == 1);
    }
}
