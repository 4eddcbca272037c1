package org.ziggurat.auth.passkeys;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;

/** The WebAuthn challenges answered already, by keyed hash, until they would have expired anyway. */
@ApplicationScoped
public class PasskeyChallengeRepository {

    private final Pool pool;

    PasskeyChallengeRepository(Pool pool) {
        this.pool = pool;
    }

    /** True for the first use of the challenge, in one statement: concurrent answers cannot both pass. */
    public Uni<Boolean> firstUse(byte[] hash, Duration lifetime) {
        return pool.preparedQuery("INSERT INTO passkey_challenge_used (challenge_hash, expires_at) "
                        + "VALUES ($1, now() + $2 * interval '1 second') ON CONFLICT (challenge_hash) DO NOTHING")
                .execute(Tuple.of(Buffer.buffer(hash), lifetime.toSeconds())).map(rows -> rows.rowCount() == 1);
    }
}
