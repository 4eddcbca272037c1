package org.ziggurat.directory.accountdata;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * What the directory holds about one person, as their export lists it: never a password hash, a
 * factor's secret, a recovery code or a mailed link's token (mails are listed without their body).
 */
@ApplicationScoped
public class AccountDataRepository {

    private final Pool pool;

    AccountDataRepository(Pool pool) {
        this.pool = pool;
    }

    /** The directory's part; null when no such person. */
    public Uni<JsonObject> export(long personId) {
        Uni<JsonObject> profile = pool.preparedQuery("SELECT json_build_object('id', id, 'username', username, "
                        + "'display_name', display_name, 'email', email, 'email_verified_at', email_verified_at, "
                        + "'public_email', public_email, 'two_factor_authentication', two_factor_enabled, "
                        + "'given_name', given_name, 'family_name', family_name, 'website', website, 'locale', locale, "
                        + "'zoneinfo', zoneinfo, "
                        + "'avatar_type', avatar_type, 'avatar_base64', encode(avatar, 'base64'), "
                        + "'password_changed_at', password_changed_at, 'created_at', created_at, 'updated_at', updated_at) AS row "
                        + "FROM person WHERE id = $1")
                .execute(Tuple.of(personId)).map(rows -> rows.rowCount() == 0 ? null : rows.iterator().next().getJsonObject("row"));
        Uni<JsonArray> memberships = list("SELECT json_build_object('organization', o.name, 'display_name', o.display_name, "
                + "'role', m.role, 'state', m.state, 'since', m.created_at) AS row FROM membership m "
                + "JOIN organization o ON o.id = m.organization_id WHERE m.person_id = $1 ORDER BY m.created_at", personId);
        Uni<JsonObject> factors = pool.preparedQuery("SELECT json_build_object("
                        + "'authenticator_app', (SELECT json_build_object('confirmed_at', confirmed_at, 'last_used_at', last_used_at) "
                        + "FROM totp_factor WHERE person_id = $1), "
                        + "'passkeys', (SELECT coalesce(json_agg(json_build_object('name', name, 'transports', transports, "
                        + "'created_at', created_at, 'last_used_at', last_used_at) ORDER BY id), '[]'::json) FROM passkey "
                        + "WHERE person_id = $1), "
                        + "'recovery_codes_left', (SELECT count(*) FROM recovery_code WHERE person_id = $1 AND used_at IS NULL)) AS row")
                .execute(Tuple.of(personId)).map(rows -> rows.iterator().next().getJsonObject("row"));
        Uni<JsonArray> log = list("SELECT json_build_object('kind', kind, 'at', created_at, 'client_address', client_address, "
                + "'device', device, 'detail', detail) AS row FROM account_event WHERE person_id = $1 ORDER BY created_at, id",
                personId);
        Uni<JsonArray> mails = list("SELECT json_build_object('kind', kind, 'recipient', recipient, 'subject', subject, "
                + "'created_at', created_at, 'sent_at', sent_at) AS row FROM mail_outbox WHERE person_id = $1 ORDER BY id",
                personId);
        Uni<JsonArray> identities = list("SELECT json_build_object('provider', provider, 'subject', subject, "
                + "'display_name', display_name, 'email', email, 'email_verified', email_verified, 'assurance', assurance, "
                + "'orcid', orcid, 'created_at', created_at, 'last_used_at', last_used_at) AS row FROM linked_identity "
                + "WHERE person_id = $1 ORDER BY id", personId);
        return Uni.combine().all().unis(profile, memberships, factors, log, mails, identities).asTuple().map(all -> all.getItem1() == null
                ? null
                : new JsonObject().put("profile", all.getItem1()).put("memberships", all.getItem2())
                        .put("second_factors", all.getItem3()).put("security_log", all.getItem4()).put("mails", all.getItem5())
                        .put("linked_identities", all.getItem6()));
    }

    private Uni<JsonArray> list(String sql, long personId) {
        return pool.preparedQuery(sql).execute(Tuple.of(personId)).map(rows -> {
            JsonArray out = new JsonArray();
            rows.forEach(row -> out.add(row.getJsonObject("row")));
            return out;
        });
    }
}
