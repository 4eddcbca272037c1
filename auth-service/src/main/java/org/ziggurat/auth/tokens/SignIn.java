package org.ziggurat.auth.tokens;

import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Row;

import java.time.Instant;

/**
 * The login session a code or a device approval was given in: the keyed hash that names it, and
 * when it ends ({@code endsAt} null: it ended already, the person signed out meanwhile).
 */
public record SignIn(byte[] sessionHash, Instant endsAt) {

    /** From a row's {@code session_hash} and {@code session_expires_at}; null when it has no session. */
    static SignIn of(Row row) {
        Buffer hash = row.getBuffer("session_hash");
        return hash == null ? null : new SignIn(hash.getBytes(), TokenRow.instant(row, "session_expires_at"));
    }
}
