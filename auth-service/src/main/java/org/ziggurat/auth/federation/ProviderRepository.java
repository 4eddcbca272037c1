package org.ziggurat.auth.federation;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuditActor;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The providers operators added through the API (V22 {@code upstream_provider}), plain SQL. */
@ApplicationScoped
public class ProviderRepository {

    /**
     * A provider as stored; {@code secretSealed} null for a public client; {@code assurance} the
     * eduperson_assurance values it may assert, space-separated (null: none).
     */
    public record Stored(String id, String kind, String displayName, String issuer, String clientId, byte[] secretSealed,
            String clientAuth, String scopes, String orcidClaim, boolean newAccounts, String authorizationEndpoint,
            String tokenEndpoint, String apiBase, String assurance, Instant updatedAt) {
    }

    private static final String COLUMNS = "id, kind, display_name, issuer, client_id, client_secret_sealed, client_auth, scopes, "
            + "orcid_claim, new_accounts, authorization_endpoint, token_endpoint, api_base, assurance, updated_at";

    /** What identifies a provider: another kind, issuer or endpoint makes it another provider. */
    private static final String SAME_IDENTITY = "%1$s.kind = %2$s.kind AND %1$s.issuer IS NOT DISTINCT FROM %2$s.issuer "
            + "AND %1$s.authorization_endpoint IS NOT DISTINCT FROM %2$s.authorization_endpoint "
            + "AND %1$s.token_endpoint IS NOT DISTINCT FROM %2$s.token_endpoint AND %1$s.api_base IS NOT DISTINCT FROM %2$s.api_base";

    private final Pool pool;

    ProviderRepository(Pool pool) {
        this.pool = pool;
    }

    public Uni<List<Stored>> all() {
        return pool.query("SELECT " + COLUMNS + " FROM upstream_provider ORDER BY id").execute().map(rows -> {
            List<Stored> all = new ArrayList<>();
            rows.forEach(row -> all.add(stored(row)));
            return all;
        });
    }

    /**
     * Whether a put made a new one, whether it has a secret now, and whether it replaced one of
     * another kind, issuer or endpoints (a new provider under the old id: the old secret was not kept).
     */
    public record Written(boolean created, boolean secretSet, boolean identityChanged) {
    }

    /**
     * Creates or replaces one; {@code keepSecret}: the stored secret stays (the request named none),
     * but only for the same provider: a replacement of another kind, issuer or endpoints never gets
     * the stored secret (it would be sent to the new issuer), in the same statement. {@code operator}:
     * who does it, named to the audit stream (V30's trigger) in the same transaction.
     */
    public Uni<Written> put(Stored provider, boolean keepSecret, long operator) {
        return pool.withTransaction(conn -> AuditActor.name(conn, operator).chain(() -> conn.preparedQuery(
                        "WITH before AS (SELECT * FROM upstream_provider WHERE id = $1) "
                        + "INSERT INTO upstream_provider (" + COLUMNS.replace(", updated_at", "") + ") "
                        + "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $15) ON CONFLICT (id) DO UPDATE SET "
                        + "kind = excluded.kind, display_name = excluded.display_name, issuer = excluded.issuer, "
                        + "client_id = excluded.client_id, client_secret_sealed = CASE WHEN $14 AND "
                        + String.format(SAME_IDENTITY, "upstream_provider", "excluded")
                        + " THEN upstream_provider.client_secret_sealed ELSE excluded.client_secret_sealed END, "
                        + "client_auth = excluded.client_auth, scopes = excluded.scopes, orcid_claim = excluded.orcid_claim, "
                        + "new_accounts = excluded.new_accounts, authorization_endpoint = excluded.authorization_endpoint, "
                        + "token_endpoint = excluded.token_endpoint, api_base = excluded.api_base, assurance = excluded.assurance, "
                        + "updated_at = clock_timestamp() "
                        + "RETURNING (xmax = 0) AS created, client_secret_sealed IS NOT NULL AS secret_set, "
                        + "EXISTS (SELECT 1 FROM before b WHERE NOT (" + String.format(SAME_IDENTITY, "b", "upstream_provider")
                        + ")) AS identity_changed")
                .execute(Tuple.tuple(Arrays.asList(provider.id(), provider.kind(), provider.displayName(), provider.issuer(),
                        provider.clientId(), provider.secretSealed() == null ? null : Buffer.buffer(provider.secretSealed()),
                        provider.clientAuth(), provider.scopes(), provider.orcidClaim(), provider.newAccounts(),
                        provider.authorizationEndpoint(), provider.tokenEndpoint(), provider.apiBase(), keepSecret,
                        provider.assurance())))))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return new Written(row.getBoolean("created"), row.getBoolean("secret_set"), row.getBoolean("identity_changed"));
                });
    }

    /** False when there was none. {@code operator}: who does it, for the audit stream (as {@link #put}). */
    public Uni<Boolean> delete(String id, long operator) {
        return pool.withTransaction(conn -> AuditActor.name(conn, operator)
                        .chain(() -> conn.preparedQuery("DELETE FROM upstream_provider WHERE id = $1").execute(Tuple.of(id))))
                .map(rows -> rows.rowCount() == 1);
    }

    private static Stored stored(Row row) {
        var sealed = row.getBuffer("client_secret_sealed");
        return new Stored(row.getString("id"), row.getString("kind"), row.getString("display_name"), row.getString("issuer"),
                row.getString("client_id"), sealed == null ? null : sealed.getBytes(), row.getString("client_auth"),
                row.getString("scopes"), row.getString("orcid_claim"), row.getBoolean("new_accounts"),
                row.getString("authorization_endpoint"), row.getString("token_endpoint"), row.getString("api_base"),
                row.getString("assurance"), row.getOffsetDateTime("updated_at").toInstant());
    }
}
