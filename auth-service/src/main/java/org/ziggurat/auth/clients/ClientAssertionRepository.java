package org.ziggurat.auth.clients;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** The jti of each client assertion until it expires (V33): good once, on every replica. */
@ApplicationScoped
public class ClientAssertionRepository {

    private final Pool pool;

    ClientAssertionRepository(Pool pool) {
        this.pool = pool;
    }

    /** True the first time this client's jti is used; the client's expired ones go in the same statement. */
    public Uni<Boolean> firstUse(String clientId, String jti, Instant expiresAt) {
        return pool.preparedQuery("WITH expired AS (DELETE FROM client_assertion WHERE client_id = $1 AND expires_at < now()) "
                        + "INSERT INTO client_assertion (client_id, jti, expires_at) VALUES ($1, $2, $3) "
                        + "ON CONFLICT (client_id, jti) DO NOTHING")
                .execute(Tuple.of(clientId, jti, OffsetDateTime.ofInstant(expiresAt, ZoneOffset.UTC)))
                .map(rows -> rows.rowCount() == 1);
    }
}
