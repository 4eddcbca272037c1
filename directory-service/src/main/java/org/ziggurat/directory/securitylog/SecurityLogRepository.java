package org.ziggurat.directory.securitylog;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.directory.factors.AccountEvents;
import org.ziggurat.directory.mail.MailOutboxRepository;
import org.ziggurat.directory.mail.SecurityNotices;

import java.time.OffsetDateTime;
import java.util.function.BiFunction;

/**
 * The security log's entries in Postgres, by plain SQL on the pool: they are written on the
 * sign-in path, from whichever thread the password's hashing finished on.
 */
@ApplicationScoped
public class SecurityLogRepository {

    private static final int PURGE_BATCH = 5000;

    private final Pool pool;

    SecurityLogRepository(Pool pool) {
        this.pool = pool;
    }

    /** Who a new-device notice goes to. */
    public record Recipient(String username, String email) {
    }

    /**
     * Records the entry and, for a sign-in from a device not seen before (by its key; never the
     * person's first sign-in), queues the notice {@code newDevice} makes, in one transaction.
     * False when no such person.
     */
    public Uni<Boolean> record(long personId, String kind, String clientAddress, String device, String key, String detail,
            BiFunction<Recipient, String, SecurityNotices.Notice> newDevice) {
        return pool.withTransaction(conn -> conn.preparedQuery("SELECT username, email FROM person WHERE id = $1 FOR SHARE")
                .execute(Tuple.of(personId))
                .chain(people -> {
                    if (people.rowCount() == 0) {
                        return Uni.createFrom().item(false);
                    }
                    Row person = people.iterator().next();
                    Recipient recipient = new Recipient(person.getString("username"), person.getString("email"));
                    Uni<Boolean> isNewDevice = AccountEvents.SIGN_IN.equals(kind) && key != null
                            ? newDevice(conn, personId, key) : Uni.createFrom().item(false);
                    return isNewDevice.chain(fresh -> conn.preparedQuery("INSERT INTO account_event "
                                    + "(person_id, kind, client_address, device, device_key, detail) VALUES ($1, $2, $3, $4, $5, $6)")
                            .execute(Tuple.from(new Object[] {personId, kind, clientAddress, device, key, detail}))
                            .chain(() -> {
                                if (!fresh) {
                                    return Uni.createFrom().voidItem();
                                }
                                SecurityNotices.Notice notice = newDevice.apply(recipient, device);
                                return MailOutboxRepository.enqueue(conn, personId, AccountEvents.SIGN_IN, recipient.email(),
                                        notice.subject(), notice.body());
                            }))
                            .replaceWith(true);
                }));
    }

    private static Uni<Boolean> newDevice(SqlConnection conn, long personId, String key) {
        return conn.preparedQuery("SELECT count(*) FILTER (WHERE device_key = $2) = 0 AND count(*) > 0 AS fresh "
                        + "FROM account_event WHERE person_id = $1 AND kind = 'sign_in'")
                .execute(Tuple.of(personId, key)).map(rows -> rows.iterator().next().getBoolean("fresh"));
    }

    /** One entry as the person reads it. */
    @io.quarkus.runtime.annotations.RegisterForReflection
    @org.eclipse.microprofile.openapi.annotations.media.Schema(name = "SecurityLogEntry")
    public record Logged(
            @org.eclipse.microprofile.openapi.annotations.media.Schema(required = true, description = "What happened: "
                    + "sign_in, sign_in_failed, second_factor_failed, email_changed, email_verified, application_authorized, "
                    + "application_revoked, password_changed, password_reset, totp_enabled, totp_removed, "
                    + "recovery_codes_regenerated, recovery_code_used, passkey_added, passkey_removed, unproven_access_removed.") String kind,
            @org.eclipse.microprofile.openapi.annotations.media.Schema(required = true) java.time.OffsetDateTime at,
            @org.eclipse.microprofile.openapi.annotations.media.Schema(nullable = true, description = "The address it came from.")
            String clientAddress,
            @org.eclipse.microprofile.openapi.annotations.media.Schema(nullable = true, description = "The browser, as it named itself.")
            String device,
            @org.eclipse.microprofile.openapi.annotations.media.Schema(nullable = true, description = "An application's name, "
                    + "or the new address.") String detail) {
    }

    /** The person's entries, newest first, at most {@code limit}. */
    public Uni<java.util.List<Logged>> entries(long personId, int limit) {
        return pool.preparedQuery("SELECT kind, created_at, client_address, device, detail FROM account_event "
                        + "WHERE person_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2")
                .execute(Tuple.of(personId, limit))
                .map(rows -> {
                    java.util.List<Logged> list = new java.util.ArrayList<>(rows.rowCount());
                    rows.forEach(row -> list.add(new Logged(row.getString("kind"), row.getOffsetDateTime("created_at"),
                            row.getString("client_address"), row.getString("device"), row.getString("detail"))));
                    return list;
                });
    }

    /** Deletes every entry older than {@code before}, in batches that keep each statement short; how many. */
    public Uni<Long> purge(OffsetDateTime before) {
        return batch(before, 0);
    }

    private Uni<Long> batch(OffsetDateTime before, long sofar) {
        return pool.preparedQuery("DELETE FROM account_event WHERE id IN (SELECT id FROM account_event "
                        + "WHERE created_at < $1 LIMIT " + PURGE_BATCH + ")")
                .execute(Tuple.of(before))
                .chain(rows -> rows.rowCount() < PURGE_BATCH ? Uni.createFrom().item(sofar + rows.rowCount())
                        : batch(before, sofar + rows.rowCount()));
    }
}
