package org.ziggurat.auth.tokens;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jwt.JWTClaimsSet;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.auth.AuthConfig;
import org.ziggurat.auth.Issuer;
import org.ziggurat.auth.oauth.StatusListBits;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The Status List Tokens (draft-ietf-oauth-status-list §5.1): list {@code k} as a JWT of type
 * {@code statuslist+jwt}, signed with the key series of JWT access tokens (so checked against the
 * same JWKS), built from the database's INVALID entries.
 *
 * <p>A revocation must show in the list within a second on every replica, whichever replica or
 * statement made it. So a replica keeps a built list for half a second only ({@link #FRESH}), and
 * no longer: nothing needs to tell it of a change. Requests meanwhile share the one build (a
 * list of 2^20 is a range scan, a 128 KiB bitmap and its compression: bench/README.md).
 */
@ApplicationScoped
public class StatusLists {

    /** Entries per list: 2^20, 128 KiB uncompressed. */
    public static final int SIZE = 1 << 20;
    /** The header's typ (§5.1). */
    public static final JOSEObjectType TYPE = new JOSEObjectType("statuslist+jwt");
    /** How long a built list is served again. */
    static final long FRESH = TimeUnit.MILLISECONDS.toNanos(500);
    /** Past this many lists kept, the stale ones are dropped when one is built. */
    private static final int KEPT = 64;

    private final StatusListRepository repository;
    private final AccessTokenJwts jwts;
    private final AuthConfig config;
    private final StatusListSettings settings;
    private final Map<Integer, Built> built = new ConcurrentHashMap<>();
    private final Map<Integer, Encoded> encoded = new ConcurrentHashMap<>();
    /** Lists known to exist: only ever grows, so only a higher number is asked of the database. */
    private volatile int known;

    StatusLists(StatusListRepository repository, AccessTokenJwts jwts, AuthConfig config, StatusListSettings settings) {
        this.repository = repository;
        this.jwts = jwts;
        this.config = config;
        this.settings = settings;
        if (settings.ttl().toSeconds() < 1 || settings.lifetime().compareTo(settings.ttl()) <= 0) {
            throw new IllegalStateException("ziggurat.auth.status-list.ttl must be a second or more, and shorter than "
                    + "ziggurat.auth.status-list.lifetime");
        }
    }

    private record Built(long startedNanos, Uni<String> jwt) {
    }

    /** A list's last bitmap and its compression, which a build without a change since takes again. */
    private record Encoded(byte[] bitmap, String lst) {
    }

    /** Seconds a relying party may keep a list: its {@code ttl}. */
    public long ttlSeconds() {
        return settings.ttl().toSeconds();
    }

    /** The Status List Token of list {@code k}; null when there is no such list. */
    public Uni<String> token(int k) {
        if (k < 0) {
            return Uni.createFrom().nullItem();
        }
        if (k < known) {
            return fresh(k);
        }
        return repository.lists().chain(lists -> {
            known = Math.max(known, lists);
            return k < lists ? fresh(k) : Uni.createFrom().nullItem();
        });
    }

    /** The addresses of every list there is (the Status List Aggregation, §9). */
    public Uni<List<String>> uris() {
        return repository.lists().map(lists -> {
            known = Math.max(known, lists);
            List<String> uris = new ArrayList<>(lists);
            for (int k = 0; k < lists; k++) {
                uris.add(StatusIndex.uri(Issuer.of(config), k));
            }
            return uris;
        });
    }

    private Uni<String> fresh(int k) {
        Built current = built.compute(k, (key, old) -> old != null && System.nanoTime() - old.startedNanos() < FRESH ? old
                : new Built(System.nanoTime(), build(k).memoize().indefinitely()));
        if (built.size() > KEPT) {
            built.entrySet().removeIf(entry -> System.nanoTime() - entry.getValue().startedNanos() >= FRESH);
        }
        return current.jwt().onFailure().invoke(() -> built.remove(k, current));
    }

    private Uni<String> build(int k) {
        // The bitmap and its compression take milliseconds of CPU: not on an event loop.
        return repository.invalid(k).emitOn(Infrastructure.getDefaultWorkerPool())
                .map(invalid -> lst(k, StatusListBits.bytes(SIZE, invalid))).chain(lst -> {
            Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            String issuer = Issuer.of(config);
            JWTClaimsSet claims = new JWTClaimsSet.Builder()
                    .issuer(issuer)
                    .subject(StatusIndex.uri(issuer, k))
                    .issueTime(Date.from(now))
                    .expirationTime(Date.from(now.plus(settings.lifetime())))
                    .claim("ttl", settings.ttl().toSeconds())
                    .claim("status_list", Map.of("bits", StatusListBits.BITS, "lst", lst,
                            "aggregation_uri", issuer + "/oauth/status-lists"))
                    .build();
            return jwts.sign(TYPE, config.accessTokenAlg(), claims);
        });
    }

    /**
     * The list's {@code lst}. Compression is most of a build's time (bench/README.md): done again
     * only when a bit changed since the last build, which a comparison of 128 KiB tells.
     */
    private String lst(int k, byte[] bitmap) {
        Encoded last = encoded.get(k);
        if (last != null && java.util.Arrays.equals(last.bitmap(), bitmap)) {
            return last.lst();
        }
        String lst = StatusListBits.lst(bitmap);
        if (encoded.size() >= KEPT) {
            encoded.clear();
        }
        encoded.put(k, new Encoded(bitmap, lst));
        return lst;
    }
}
