package org.ziggurat.auth.tokens;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The end of a person's sign-ins: after a new password or a first second factor, when their account
 * goes, or when directory-service asks. Each revokes tokens and ends login sessions (and pending
 * sign-ins) in one statement or one transaction; the revoked tokens leave this replica's memory
 * before the answer ({@link TokenRepository#forgetRevoked}). Each says how many tokens it revoked.
 */
@ApplicationScoped
public class SignOutRepository {

    private final Pool pool;
    private final TokenRepository tokens;

    SignOutRepository(Pool pool, TokenRepository tokens) {
        this.pool = pool;
        this.tokens = tokens;
    }

    /**
     * Every live token of the person, whatever its application, and every login session and
     * pending sign-in of theirs, in one transaction: after a new password, nobody is signed in as
     * them. The number of tokens revoked.
     */
    public Uni<Integer> signOutEverywhere(long personId) {
        return pool.withTransaction(conn -> conn.preparedQuery("UPDATE token SET revoked_at = now(), updated_at = now() "
                        + "WHERE person_id = $1 AND revoked_at IS NULL RETURNING hash").execute(Tuple.of(personId))
                .call(() -> conn.preparedQuery("DELETE FROM login_session WHERE person_id = $1").execute(Tuple.of(personId)))
                .call(() -> conn.preparedQuery("DELETE FROM pending_sign_in WHERE person_id = $1").execute(Tuple.of(personId))))
                .map(tokens::forgetRevoked);
    }

    /**
     * The person's live tokens that no application holds: those a script got with the password
     * itself (the password grant without a client), and what was made from them (their family: the
     * API form's grants, exchanges). A new password ends them; they are listed nowhere the person
     * could end them one by one. How many.
     */
    public Uni<Integer> revokeObtainedWithPassword(long personId) {
        return pool.preparedQuery("UPDATE token SET revoked_at = now(), updated_at = now() "
                        + "WHERE person_id = $1 AND (application_id IS NULL OR family IN (SELECT c.family FROM token c WHERE c.person_id = $1 AND c.application_id IS NULL)) AND revoked_at IS NULL RETURNING hash")
                .execute(Tuple.of(personId)).map(tokens::forgetRevoked);
    }

    /**
     * After a password changed through the API: every sign-in of the person ends (login sessions,
     * pending sign-ins, the tokens bound to them) and so do the tokens of the client-less password
     * grant; applications the person gave access keep theirs. One statement. How many tokens.
     */
    public Uni<Integer> signOutKeepingApplications(long personId) {
        return pool.preparedQuery("WITH ended AS (DELETE FROM login_session WHERE person_id = $1 RETURNING session_hash), "
                        + "pending AS (DELETE FROM pending_sign_in WHERE person_id = $1) "
                        + "UPDATE token SET revoked_at = now(), updated_at = now() WHERE person_id = $1 AND revoked_at IS NULL "
                        + "AND ((application_id IS NULL OR family IN (SELECT c.family FROM token c WHERE c.person_id = $1 AND c.application_id IS NULL)) OR session_hash IN (SELECT session_hash FROM ended)) RETURNING hash")
                .execute(Tuple.of(personId)).map(tokens::forgetRevoked);
    }

    /**
     * On the account page, after a new password ({@code singleFactorOnly} false) or a first second
     * factor (true): the person's other sign-ins end (login sessions but {@code keep}, and with a new
     * password every pending sign-in too; with a factor, only the sessions that did not use one),
     * with the tokens bound to them; after a new password the client-less password grant's tokens
     * too. (After a factor, those stay single-factor tokens: an organization that requires one asks
     * them to step up.) Applications the person gave access keep theirs. One statement; how many tokens.
     */
    public Uni<Integer> signOutOthersKeepingApplications(long personId, byte[] keep, boolean singleFactorOnly) {
        String sessions = "person_id = $1 AND session_hash <> $2" + (singleFactorOnly ? " AND NOT ('mfa' = ANY (amr))" : "");
        return pool.preparedQuery("WITH ended AS (DELETE FROM login_session WHERE " + sessions + " RETURNING session_hash), "
                        + "pending AS (DELETE FROM pending_sign_in WHERE person_id = $1 AND NOT $3) "
                        + "UPDATE token SET revoked_at = now(), updated_at = now() WHERE person_id = $1 AND revoked_at IS NULL "
                        + "AND ((application_id IS NULL OR family IN (SELECT c.family FROM token c WHERE c.person_id = $1 AND c.application_id IS NULL)) AND NOT $3 OR session_hash IN (SELECT session_hash FROM ended)) "
                        + "RETURNING hash")
                .execute(Tuple.of(personId, io.vertx.core.buffer.Buffer.buffer(keep), singleFactorOnly))
                .map(tokens::forgetRevoked);
    }
}
