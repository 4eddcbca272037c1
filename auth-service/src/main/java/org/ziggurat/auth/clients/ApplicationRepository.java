package org.ziggurat.auth.clients;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import io.vertx.mutiny.sqlclient.SqlClient;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.AuditActor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

@ApplicationScoped
public class ApplicationRepository {

    private final Pool pool;
    private final Event<ApplicationDeleted> deletions;

    /**
     * Clients by client_id, as the token, introspection and revocation endpoints authenticate them
     * on every call (a database read each time was a third of a client_credentials grant's cost).
     * A change made through this process invalidates at once; another replica's change is seen
     * within the time-to-live ({@code ziggurat.auth.client-cache-ttl}, 0 switches the cache off).
     */
    private final Cache<String, ApplicationRow> clients;
    /** Bumped by every change: a read that began before a change never caches what it read. */
    private final AtomicLong generation = new AtomicLong();

    ApplicationRepository(Pool pool, Event<ApplicationDeleted> deletions, AuthConfig config) {
        this.pool = pool;
        this.deletions = deletions;
        Duration ttl = config.clientCacheTtl();
        this.clients = ttl.isZero() || ttl.isNegative() ? null
                : Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(ttl).build();
    }

    public record NewApplication(Long ownerId, String name, String clientId, byte[] clientSecretHash,
            boolean confidential, List<String> redirectUris, List<String> scopes, boolean passwordGrant,
            boolean introspection, OpenIdSettings openId, Registration registration, Integer refreshTokenAbsoluteLifetime,
            boolean operatorRegistered) {
    }

    /** A client that registered itself (RFC 7591): its registration access token's hash, its other metadata (JSON). */
    public record Registration(byte[] tokenHash, String metadata) {
    }

    /**
     * What an application sets for OpenID Connect, pushed requests and its tokens: their format
     * (opaque or jwt), whether each request must carry a DPoP proof, whether it may exchange tokens.
     */
    public record OpenIdSettings(List<String> postLogoutRedirectUris, String idTokenAlg, boolean requirePushedRequests,
            String accessTokenFormat, boolean dpopBound, boolean tokenExchange) {
        public static final OpenIdSettings DEFAULTS = new OpenIdSettings(List.of(), "RS256", false, "opaque", false, false);
    }

    /** Made by its owner (through /applications, or a registration with the owner's token): the audit stream names them. */
    public Uni<ApplicationRow> insert(NewApplication app) {
        return written(app.ownerId(), conn -> one(conn, "INSERT INTO application (owner_id, name, client_id, "
                + "client_secret_hash, confidential, redirect_uris, "
                + "scopes, password_grant, introspection, post_logout_redirect_uris, id_token_signed_response_alg, "
                + "require_pushed_authorization_requests, registration_token_hash, registration_metadata, "
                + "refresh_token_absolute_lifetime, access_token_format, dpop_bound_access_tokens, token_exchange, "
                + "operator_registered) "
                + "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::text::jsonb, $15, $16, $17, $18, $19) "
                + "RETURNING " + ApplicationRow.COLUMNS, Tuple.tuple()
                .addValue(app.ownerId()).addValue(app.name()).addValue(app.clientId())
                .addValue(app.clientSecretHash() == null ? null : Buffer.buffer(app.clientSecretHash()))
                .addValue(app.confidential()).addValue(app.redirectUris().toArray(String[]::new))
                .addValue(app.scopes().toArray(String[]::new)).addValue(app.passwordGrant())
                .addValue(app.introspection()).addValue(app.openId().postLogoutRedirectUris().toArray(String[]::new))
                .addValue(app.openId().idTokenAlg()).addValue(app.openId().requirePushedRequests())
                .addValue(app.registration() == null ? null : Buffer.buffer(app.registration().tokenHash()))
                .addValue(app.registration() == null ? null : app.registration().metadata())
                .addValue(app.refreshTokenAbsoluteLifetime()).addValue(app.openId().accessTokenFormat())
                .addValue(app.openId().dpopBound()).addValue(app.openId().tokenExchange())
                .addValue(app.operatorRegistered())));
    }

    /** The client this replica keeps for {@code clientId} ({@link #byClientId}'s cache); null when it keeps none. */
    public ApplicationRow kept(String clientId) {
        return clients == null ? null : clients.getIfPresent(clientId);
    }

    public Uni<ApplicationRow> byClientId(String clientId) {
        ApplicationRow cached = kept(clientId);
        if (cached != null) {
            return Uni.createFrom().item(cached);
        }
        long before = generation.get();
        return one("SELECT " + ApplicationRow.COLUMNS + " FROM application WHERE client_id = $1", Tuple.of(clientId))
                .invoke(row -> {
                    if (row != null && clients != null && generation.get() == before) {
                        clients.put(clientId, row);
                    }
                });
    }

    private void changed(long id) {
        generation.incrementAndGet();
        if (clients != null) {
            clients.asMap().values().removeIf(row -> row.id() == id);
        }
    }

    /** By client id from the database, not this replica's cache: for changes a client makes to itself. */
    public Uni<ApplicationRow> byClientIdUncached(String clientId) {
        return one("SELECT " + ApplicationRow.COLUMNS + " FROM application WHERE client_id = $1", Tuple.of(clientId));
    }

    /** An application by id, whoever owns it; null when there is none. */
    public Uni<ApplicationRow> byId(long id) {
        return one("SELECT " + ApplicationRow.COLUMNS + " FROM application WHERE id = $1", Tuple.of(id));
    }

    /** The owner's application; null when it does not exist or belongs to someone else. */
    public Uni<ApplicationRow> ownedBy(long id, long ownerId) {
        return one("SELECT " + ApplicationRow.COLUMNS + " FROM application WHERE id = $1 AND owner_id = $2",
                Tuple.of(id, ownerId));
    }

    public Uni<List<ApplicationRow>> listOwnedBy(long ownerId) {
        return pool.preparedQuery("SELECT " + ApplicationRow.COLUMNS + " FROM application WHERE owner_id = $1 ORDER BY id")
                .execute(Tuple.of(ownerId)).map(ApplicationRepository::all);
    }

    /**
     * The {@code operator}'s mark (or its removal) on any application; null when there is no such
     * application. Taking the mark away also ends the trust an operator's registration gave it
     * (operator_registered): an operator who distrusts an application has this one lever.
     */
    public Uni<ApplicationRow> setVerified(long id, boolean verified, long operator) {
        return written(operator, conn -> one(conn, "UPDATE application SET verified = $2, "
                + "operator_registered = operator_registered AND $2, updated_at = now() WHERE id = $1 "
                + "RETURNING " + ApplicationRow.COLUMNS, Tuple.of(id, verified))).invoke(row -> changed(id));
    }

    /**
     * {@code registrationMetadata}: a registered client's other metadata, replaced; null leaves it.
     * {@code actor}: who changes it (its owner), for the audit stream.
     */
    public Uni<ApplicationRow> update(long id, String name, List<String> redirectUris, List<String> scopes,
            boolean passwordGrant, OpenIdSettings openId, String registrationMetadata, Integer refreshTokenAbsoluteLifetime,
            long actor) {
        // An operator verified what they saw: a new name or new addresses to send people to are unverified again.
        return written(actor, conn -> one(conn, "UPDATE application SET verified = verified AND name = $2 AND redirect_uris = $3 "
                + "AND post_logout_redirect_uris = $6, "
                + "operator_registered = operator_registered AND redirect_uris = $3 AND post_logout_redirect_uris = $6, name = $2, redirect_uris = $3, scopes = $4, password_grant = $5, "
                + "post_logout_redirect_uris = $6, id_token_signed_response_alg = $7, "
                + "require_pushed_authorization_requests = $8, "
                + "registration_metadata = coalesce($9::text::jsonb, registration_metadata), "
                + "refresh_token_absolute_lifetime = $10, access_token_format = $11, dpop_bound_access_tokens = $12, "
                + "token_exchange = $13, updated_at = now() WHERE id = $1 "
                + "RETURNING " + ApplicationRow.COLUMNS, Tuple.tuple().addValue(id).addValue(name)
                .addValue(redirectUris.toArray(String[]::new)).addValue(scopes.toArray(String[]::new))
                .addValue(passwordGrant).addValue(openId.postLogoutRedirectUris().toArray(String[]::new))
                .addValue(openId.idTokenAlg()).addValue(openId.requirePushedRequests()).addValue(registrationMetadata)
                .addValue(refreshTokenAbsoluteLifetime).addValue(openId.accessTokenFormat())
                .addValue(openId.dpopBound()).addValue(openId.tokenExchange())))
                .invoke(row -> changed(id));
    }

    /** {@code actor}: who rotates it (its owner), for the audit stream. */
    public Uni<ApplicationRow> replaceSecret(long id, byte[] secretHash, long actor) {
        return written(actor, conn -> one(conn, "UPDATE application SET client_secret_hash = $2, updated_at = now() "
                + "WHERE id = $1 RETURNING " + ApplicationRow.COLUMNS, Tuple.of(id, Buffer.buffer(secretHash))))
                .invoke(row -> changed(id));
    }

    /**
     * Codes and tokens go with it (ON DELETE CASCADE): nothing it was issued still works, nor is
     * any of its tokens still kept in this replica's memory when this answers. {@code actor}: who
     * deletes it (its owner, or the person erased with it), for the audit stream, which also tells of
     * the grants that go with it as theirs.
     */
    public Uni<Boolean> delete(long id, long actor) {
        return written(actor, conn -> conn.preparedQuery("DELETE FROM application WHERE id = $1").execute(Tuple.of(id)))
                .invoke(rows -> {
                    changed(id);
                    deletions.fire(new ApplicationDeleted(id));
                }).map(rows -> rows.rowCount() > 0);
    }

    /**
     * Creates or updates a platform client (no owner) from settings, such as the gateway's: the
     * platform's own change, told in the audit stream without a person.
     */
    public Uni<ApplicationRow> upsertPlatformClient(String clientId, String name, byte[] secretHash, boolean introspection) {
        return written(null, conn -> one(conn, "INSERT INTO application (owner_id, name, client_id, client_secret_hash, "
                + "confidential, redirect_uris, "
                + "scopes, password_grant, introspection) VALUES (NULL, $2, $1, $3, true, '{}', '{}', false, $4) "
                + "ON CONFLICT (client_id) DO UPDATE SET client_secret_hash = $3, introspection = $4, name = $2, "
                + "updated_at = now() RETURNING " + ApplicationRow.COLUMNS,
                Tuple.of(clientId, name, Buffer.buffer(secretHash), introspection))).invoke(row -> changed(row.id()));
    }

    /** A change, in a transaction that names who makes it for the audit stream's trigger (V30). */
    private <T> Uni<T> written(Long actor, java.util.function.Function<io.vertx.mutiny.sqlclient.SqlConnection, Uni<T>> work) {
        return pool.withTransaction(conn -> AuditActor.name(conn, actor).chain(() -> work.apply(conn)));
    }

    private Uni<ApplicationRow> one(String sql, Tuple args) {
        return one(pool, sql, args);
    }

    private static Uni<ApplicationRow> one(SqlClient client, String sql, Tuple args) {
        return client.preparedQuery(sql).execute(args)
                .map(rows -> rows.rowCount() == 0 ? null : ApplicationRow.from(rows.iterator().next()));
    }

    private static List<ApplicationRow> all(RowSet<Row> rows) {
        List<ApplicationRow> list = new ArrayList<>(rows.rowCount());
        rows.forEach(r -> list.add(ApplicationRow.from(r)));
        return list;
    }
}
