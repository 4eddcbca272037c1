package org.ziggurat.auth.tokens;

import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Row;

import java.time.Instant;
import java.util.List;

/**
 * The login session a code or a device approval was given in: the keyed hash that names it, when
 * it ends ({@code endsAt} null: it ended already, the person signed out meanwhile), and how the
 * person signed in ({@code amr}, RFC 8176; null when not known).
 */
public record SignIn(byte[] sessionHash, Instant endsAt, List<String> amr) {

    public SignIn(byte[] sessionHash, Instant endsAt) {
        this(sessionHash, endsAt, null);
    }

    /**
     * From a row's {@code session_hash}, {@code session_expires_at} and {@code session_amr}; null
     * when it has no session.
     */
    static SignIn of(Row row) {
        Buffer hash = row.getBuffer("session_hash");
        String[] amr = row.getArrayOfStrings("session_amr");
        return hash == null ? null : new SignIn(hash.getBytes(), TokenRow.instant(row, "session_expires_at"),
                amr == null ? null : List.of(amr));
    }

    /** How the person of a sign-in signed in; null when there was none or it is not known. */
    public static List<String> amrOf(SignIn signIn) {
        return signIn == null ? null : signIn.amr();
    }
}
