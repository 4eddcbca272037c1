package org.ziggurat.auth.keys;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.crypto.TokenCrypto;

import java.text.ParseException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The keys that sign ID tokens (OpenID Connect), one series per algorithm (RS256, ES256), kept in
 * the database with their private halves encrypted, shared by every replica.
 *
 * <p>Rotation: a key signs for {@code signing-key-lifetime}; its successor is created
 * {@code signing-key-lead} before that and published at once, so that relying parties that cache
 * the JWKS know it before it signs; a retired key stays published until every token it signed has
 * expired ({@code access-token-lifetime} after it retired). Any replica may rotate: the rotation
 * lock makes one of them create the next key. Each replica reads the published keys again after
 * {@link #CACHE_MILLIS}, far less than the lead.
 */
@ApplicationScoped
public class SigningKeys {

    public static final List<String> ALGORITHMS = List.of("RS256", "ES256");
    static final long CACHE_MILLIS = 60_000;
    private static final Logger LOG = Logger.getLogger(SigningKeys.class);

    private record Loaded(List<SigningKeyRepository.KeyRow> keys, long at) {
    }

    private final SigningKeyRepository repository;
    private final TokenCrypto crypto;
    private final AuthConfig config;
    private volatile Loaded loaded;
    /** Private keys by kid, decrypted and parsed once: ID tokens are signed on the token endpoint's hot path. */
    private final Map<String, JWK> privateKeys = new ConcurrentHashMap<>();

    SigningKeys(SigningKeyRepository repository, TokenCrypto crypto, AuthConfig config) {
        this.repository = repository;
        this.crypto = crypto;
        this.config = config;
    }

    /** The public keys to publish (the JWKS), every algorithm, oldest first. */
    public Uni<JWKSet> published() {
        return keys().map(rows -> {
            List<JWK> jwks = new ArrayList<>();
            for (SigningKeyRepository.KeyRow row : rows) {
                jwks.add(parse(row.publicJwk()));
            }
            return new JWKSet(jwks);
        });
    }

    /** The private key that signs now with {@code alg}: the oldest of its series not yet retired. */
    public Uni<JWK> signing(String alg) {
        return keys().chain(rows -> {
            SigningKeyRepository.KeyRow current = current(rows, alg);
            if (current != null) {
                return Uni.createFrom().item(current);
            }
            // Every key this replica knows of has retired: its copy is older than the successor
            // (another replica rotated within CACHE_MILLIS). Read them again, rotating if need be.
            loaded = null;
            return keys().map(fresh -> {
                SigningKeyRepository.KeyRow next = current(fresh, alg);
                if (next == null) {
                    throw new IllegalStateException("no " + alg + " signing key");
                }
                return next;
            });
        }).map(current -> privateKeys.computeIfAbsent(current.kid(), kid -> parse(crypto.decrypt(current.privateJwk()))));
    }

    /** Forgets this replica's copy of the keys, as if it were a minute old (tests). */
    void forgetCopy() {
        loaded = null;
    }

    /** The key of the series that signs now: the oldest not yet retired; null when all have. */
    private static SigningKeyRepository.KeyRow current(List<SigningKeyRepository.KeyRow> rows, String alg) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        return rows.stream().filter(r -> r.alg().equals(alg) && r.retireAt().isAfter(now))
                .min(java.util.Comparator.comparing(SigningKeyRepository.KeyRow::retireAt)).orElse(null);
    }

    /** Creates what the series lack (a first key, or the next one within the lead), drops the expired. */
    @Scheduled(every = "{ziggurat.auth.signing-key-check-every:1h}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    public Uni<Void> rotate() {
        return repository.underRotationLock(connection -> {
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (String alg : ALGORITHMS) {
                chain = chain.chain(() -> rotate(connection, alg));
            }
            return chain;
        }).chain(repository::dropExpired).invoke(dropped -> {
            if (dropped > 0) {
                LOG.infof("dropped %d signing keys whose tokens have all expired", dropped);
            }
            loaded = null;
        }).replaceWithVoid();
    }

    private Uni<Void> rotate(SqlConnection connection, String alg) {
        return repository.lastRetirement(connection, alg).chain(last -> {
            OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
            if (last != null && last.minus(config.signingKeyLead()).isAfter(now)) {
                return Uni.createFrom().voidItem();
            }
            OffsetDateTime signsFrom = last == null || last.isBefore(now) ? now : last;
            OffsetDateTime retireAt = signsFrom.plus(config.signingKeyLifetime());
            // Key generation takes a while (RSA): not on the event loop.
            return Uni.createFrom().item(() -> generate(alg)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                    .chain(jwk -> repository.insert(connection, new SigningKeyRepository.KeyRow(jwk.getKeyID(), alg,
                            jwk.toPublicJWK().toJSONString(), crypto.encrypt(jwk.toJSONString()), now, retireAt,
                            retireAt.plus(config.accessTokenLifetime())))
                            .invoke(() -> LOG.infof("signing key %s (%s) created: signs from %s until %s", jwk.getKeyID(), alg,
                                    signsFrom, retireAt)));
        });
    }

    private Uni<List<SigningKeyRepository.KeyRow>> keys() {
        Loaded current = loaded;
        if (current != null && System.currentTimeMillis() - current.at() < CACHE_MILLIS) {
            return Uni.createFrom().item(current.keys());
        }
        return repository.published().chain(rows -> {
            boolean complete = ALGORITHMS.stream().allMatch(alg -> rows.stream().anyMatch(r -> r.alg().equals(alg)
                    && r.retireAt().isAfter(OffsetDateTime.now(ZoneOffset.UTC))));
            // The first use on a new database, or after a long stop: the series are made then.
            return complete ? Uni.createFrom().item(rows) : rotate().chain(repository::published);
        }).invoke(rows -> {
            loaded = new Loaded(rows, System.currentTimeMillis());
            privateKeys.keySet().removeIf(kid -> rows.stream().noneMatch(r -> r.kid().equals(kid)));
        });
    }

    static JWK generate(String alg) {
        try {
            return switch (alg) {
                case "RS256" -> new RSAKeyGenerator(2048).keyUse(KeyUse.SIGNATURE).algorithm(JWSAlgorithm.RS256)
                        .keyIDFromThumbprint(true).generate();
                case "ES256" -> new ECKeyGenerator(Curve.P_256).keyUse(KeyUse.SIGNATURE).algorithm(JWSAlgorithm.ES256)
                        .keyIDFromThumbprint(true).generate();
                default -> throw new IllegalArgumentException(alg);
            };
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot generate a " + alg + " key", e);
        }
    }

    private static JWK parse(String json) {
        try {
            return JWK.parse(json);
        } catch (ParseException e) {
            throw new IllegalStateException("a stored signing key cannot be read", e);
        }
    }
}
