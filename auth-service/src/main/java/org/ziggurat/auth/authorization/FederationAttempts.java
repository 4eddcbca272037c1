package org.ziggurat.auth.authorization;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.crypto.TokenCrypto;
import org.ziggurat.auth.federation.FederationSettings;
import org.ziggurat.auth.federation.Upstream;
import org.ziggurat.auth.federation.UpstreamIdentity;

import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sign-ins at other providers in the database, where every replica finds them: an attempt from the
 * button to the provider's answer, and an identity no account uses yet while the person chooses
 * (a new account, or a link to theirs). The browser holds a random value for each (its keyed hash
 * here); an attempt's nonce and PKCE verifier are derived from the browser's value with the key,
 * so the table holds no secret of it, and its state is useful only with that browser.
 */
@ApplicationScoped
public class FederationAttempts {

    /** The browser's value of an attempt in progress. */
    public static final String COOKIE = "ziggurat_federation";
    /** The browser's value of an identity waiting for the person's choice. */
    public static final String PENDING_COOKIE = "ziggurat_federation_identity";
    private static final String BROWSER_PREFIX = "zfb_";
    private static final String PENDING_PREFIX = "zfi_";
    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    /**
     * Where the person goes once signed in: a page, its parameters, and the application (or "-") for
     * the log; {@code formTarget}, the origin where that page may send the browser on (the client's
     * redirect URI's, checked; null: only here), which the pages on the way let their forms lead to.
     */
    public record Return(String path, Map<String, String> params, String clientId, String formTarget) {

        public Return(String path, Map<String, String> params, String clientId) {
            this(path, params, clientId, null);
        }
    }

    /** A new attempt: the browser's cookie value and what the provider is sent. */
    public record Started(String browserValue, Upstream.Attempt attempt) {
    }

    /**
     * An attempt taken back: its provider, where it returns, the session that links (else null), its
     * values, and the redirect URI the provider was sent (null: the shared one of attempts begun
     * before each provider had its own).
     */
    public record Taken(String provider, Return back, byte[] linkSession, Upstream.Attempt attempt, String redirectUri) {
    }

    /** An identity waiting for the person's choice. */
    public record Held(UpstreamIdentity identity, Return back) {
    }

    private final Pool pool;
    private final TokenCrypto crypto;
    private final FederationSettings settings;

    FederationAttempts(Pool pool, TokenCrypto crypto, FederationSettings settings) {
        this.pool = pool;
        this.crypto = crypto;
        this.settings = settings;
    }

    /** A new attempt at {@code provider}, whose answer comes back to {@code redirectUri} (the provider's own). */
    public Uni<Started> start(String provider, Return back, byte[] linkSession, String redirectUri) {
        String browser = BROWSER_PREFIX + crypto.randomString(ALPHABET, 43);
        String state = crypto.randomString(ALPHABET, 43);
        Upstream.Attempt attempt = derived(state, browser);
        return pool.preparedQuery("INSERT INTO federation_attempt (state_hash, browser_hash, provider, return_path, return_params, "
                        + "client_id, link_session, expires_at, form_target, redirect_uri) "
                        + "VALUES ($1, $2, $3, $4, $5, $6, $7, now() + $8 * interval '1 second', $9, $10)")
                .execute(Tuple.tuple(Arrays.asList(Buffer.buffer(crypto.hash(state)), Buffer.buffer(crypto.hash(browser)), provider,
                        back.path(), new JsonObject(new LinkedHashMap<>(back.params())), back.clientId(),
                        linkSession == null ? null : Buffer.buffer(linkSession), settings.attemptLifetime().toSeconds(),
                        back.formTarget(), redirectUri)))
                .replaceWith(new Started(browser, attempt));
    }

    /**
     * Takes the attempt of a state back, once, for the browser that started it, when its answer came
     * to the redirect URI the provider was sent ({@code redirectUri}; null: the shared one, only for
     * an attempt begun before each provider had its own); null when unknown, another browser's,
     * another provider's (a mix-up), taken already or expired.
     */
    public Uni<Taken> take(String state, String browser, String redirectUri) {
        if (state == null || state.length() > 100 || browser == null || !browser.startsWith(BROWSER_PREFIX) || browser.length() > 100) {
            return Uni.createFrom().nullItem();
        }
        return pool.preparedQuery("DELETE FROM federation_attempt WHERE state_hash = $1 AND browser_hash = $2 AND expires_at > now() "
                        + "AND redirect_uri IS NOT DISTINCT FROM $3 "
                        + "RETURNING provider, return_path, return_params, client_id, link_session, form_target, redirect_uri")
                .execute(Tuple.of(Buffer.buffer(crypto.hash(state)), Buffer.buffer(crypto.hash(browser)), redirectUri))
                .map(rows -> {
                    if (rows.rowCount() == 0) {
                        return null;
                    }
                    Row row = rows.iterator().next();
                    var link = row.getBuffer("link_session");
                    return new Taken(row.getString("provider"), back(row), link == null ? null : link.getBytes(),
                            derived(state, browser), row.getString("redirect_uri"));
                });
    }

    /**
     * Where an attempt of this browser may end (its {@link Return#formTarget()}), read without taking
     * it: the page that posts the provider's answer must let its form lead there. Null when unknown.
     */
    public Uni<String> formTarget(String state, String browser) {
        if (state == null || state.length() > 100 || browser == null || !browser.startsWith(BROWSER_PREFIX) || browser.length() > 100) {
            return Uni.createFrom().nullItem();
        }
        return pool.preparedQuery("SELECT form_target FROM federation_attempt WHERE state_hash = $1 AND browser_hash = $2 "
                        + "AND expires_at > now()")
                .execute(Tuple.of(Buffer.buffer(crypto.hash(state)), Buffer.buffer(crypto.hash(browser))))
                .map(rows -> rows.rowCount() == 0 ? null : rows.iterator().next().getString("form_target"));
    }

    /** Keeps an identity no account uses while the person chooses; the cookie's value. */
    public Uni<String> hold(UpstreamIdentity identity, Return back) {
        String value = PENDING_PREFIX + crypto.randomString(ALPHABET, 43);
        JsonObject stored = new JsonObject().put("provider", identity.provider()).put("subject", identity.subject())
                .put("preferred_username", identity.preferredUsername()).put("name", identity.name())
                .put("email", identity.email()).put("email_verified", identity.emailVerified())
                .put("assurance", new JsonArray(identity.assurance())).put("orcid", identity.orcid())
                .put("issuer", identity.issuer());
        return pool.preparedQuery("INSERT INTO federation_pending (pending_hash, provider, identity, amr, return_path, return_params, "
                        + "client_id, expires_at, form_target) VALUES ($1, $2, $3, $4, $5, $6, $7, now() + $8 * interval '1 second', $9)")
                .execute(Tuple.tuple(Arrays.asList(Buffer.buffer(crypto.hash(value)), identity.provider(), stored,
                        identity.amr().toArray(String[]::new), back.path(), new JsonObject(new LinkedHashMap<>(back.params())),
                        back.clientId(), settings.attemptLifetime().toSeconds(), back.formTarget())))
                .replaceWith(value);
    }

    /** The identity a cookie's value holds; null when unknown, released or expired. */
    public Uni<Held> held(String value) {
        if (!plausiblePending(value)) {
            return Uni.createFrom().nullItem();
        }
        return pool.preparedQuery("SELECT identity, amr, return_path, return_params, client_id, form_target FROM federation_pending "
                        + "WHERE pending_hash = $1 AND expires_at > now()")
                .execute(Tuple.of(Buffer.buffer(crypto.hash(value))))
                .map(rows -> rows.rowCount() == 0 ? null : held(rows.iterator().next()));
    }

    /** Releases it, once: true for the one caller that did (two tabs choosing at once make one account or link). */
    public Uni<Boolean> release(String value) {
        if (!plausiblePending(value)) {
            return Uni.createFrom().item(false);
        }
        return pool.preparedQuery("DELETE FROM federation_pending WHERE pending_hash = $1 AND expires_at > now()")
                .execute(Tuple.of(Buffer.buffer(crypto.hash(value)))).map(rows -> rows.rowCount() == 1);
    }

    private static Held held(Row row) {
        JsonObject stored = row.getJsonObject("identity");
        List<String> assurance = stored.getJsonArray("assurance", new JsonArray()).stream().map(String::valueOf).toList();
        UpstreamIdentity identity = new UpstreamIdentity(stored.getString("provider"), stored.getString("subject"),
                stored.getString("preferred_username"), stored.getString("name"), stored.getString("email"),
                stored.getBoolean("email_verified", false), assurance, stored.getString("orcid"),
                List.of(row.getArrayOfStrings("amr")), stored.getString("issuer"));
        return new Held(identity, back(row));
    }

    private static Return back(Row row) {
        Map<String, String> params = new LinkedHashMap<>();
        row.getJsonObject("return_params").forEach(e -> params.put(e.getKey(), String.valueOf(e.getValue())));
        return new Return(row.getString("return_path"), params, row.getString("client_id"), row.getString("form_target"));
    }

    /** The nonce and the PKCE verifier of an attempt: keyed hashes of the browser's value, 43 characters each. */
    private Upstream.Attempt derived(String state, String browser) {
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        return new Upstream.Attempt(state, base64.encodeToString(crypto.hash("nonce " + browser)),
                base64.encodeToString(crypto.hash("pkce " + browser)));
    }

    private static boolean plausiblePending(String value) {
        return value != null && value.startsWith(PENDING_PREFIX) && value.length() <= 100;
    }
}
