package org.ziggurat.gateway.identity;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;
import org.ziggurat.gateway.GatewayConfig;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Arrays;
import java.util.Base64;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The DPoP nonces this replica issues (RFC 9449 §9), and the first uses of the proofs made with
 * them. A nonce names its issuer (this replica's start, its epoch, and the address the other
 * gateways ask it at) and its issue time, under a MAC whose key every gateway derives from the
 * gateway's client secret: no caller can forge one, and every replica can read who issued it.
 * The issuer alone remembers which (key, jti) its nonces have been used with, for a nonce's
 * lifetime: a proof's first use is a set insertion here, and the other replicas ask here
 * ({@link DpopPeers}). After a restart the epoch is new, and the old nonces are refused.
 */
@Singleton
public class DpopNonces {

    private static final Logger LOG = Logger.getLogger(DpopNonces.class);
    private static final byte VERSION = 1;
    private static final int MAC_BYTES = 16;
    /** The issue times of the nonces handed out are this coarse: one nonce per step, and one replay set. */
    static final long STEP_SECONDS = 10;
    /** How far ahead of this replica's clock another replica's nonce may be issued. */
    private static final long SKEW_SECONDS = 5;
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder B64_DECODER = Base64.getUrlDecoder();

    private final long lifetimeSeconds;
    private final long epoch = new SecureRandom().nextLong();
    private final byte[] nonceKey;
    private final byte[] peerCredential;
    private final ThreadLocal<Mac> macs;
    private final Clock clock;
    /** The proofs seen with this replica's nonces, by the step of their nonce's issue time. */
    private final ConcurrentHashMap<Long, Set<String>> seen = new ConcurrentHashMap<>();
    private volatile String address;
    private volatile Minted current;

    private record Minted(long step, String value) {
    }

    /** A nonce read: when it was issued, and by which replica (its epoch and address). */
    public record Nonce(long issuedAt, long epoch, String issuer) {
    }

    @Inject
    DpopNonces(GatewayConfig config) {
        this(config.clientSecret().orElse(null), config.dpop().nonceLifetime().toSeconds(), Clock.systemUTC());
    }

    DpopNonces(String secret, long lifetimeSeconds, Clock clock) {
        this.lifetimeSeconds = lifetimeSeconds;
        this.clock = clock;
        byte[] root;
        if (secret == null || secret.isEmpty()) {
            // One replica's own key: its nonces are good at it alone (ProductionReadiness requires the secret).
            LOG.warn("no ziggurat.gateway.client-secret: DPoP nonces are this replica's alone");
            root = new byte[32];
            new SecureRandom().nextBytes(root);
        } else {
            root = secret.getBytes(StandardCharsets.UTF_8);
        }
        this.nonceKey = hmac(root, "ziggurat gateway dpop nonce v1");
        this.peerCredential = hmac(root, "ziggurat gateway peer v1");
        this.macs = ThreadLocal.withInitial(() -> mac(nonceKey));
    }

    /** Where the other gateways reach this one ({@link DpopPeers}, once it listens): the nonces name it. */
    void issueAs(String address) {
        this.address = address;
        this.current = null;
    }

    /** The credential by which gateways ask each other, the same at every replica. */
    String peerCredential() {
        return B64.encodeToString(peerCredential);
    }

    /** A nonce to hand out now (the same one for {@link #STEP_SECONDS}): good for the lifetime less a step at least. */
    public String current() {
        long step = Math.floorDiv(clock.instant().getEpochSecond(), STEP_SECONDS);
        Minted minted = current;
        if (minted == null || minted.step() != step) {
            minted = new Minted(step, mint(step * STEP_SECONDS));
            current = minted;
        }
        return minted.value();
    }

    String mint(long issuedAt) {
        byte[] issuer = address.getBytes(StandardCharsets.UTF_8);
        ByteBuffer body = ByteBuffer.allocate(1 + 8 + 8 + 1 + issuer.length + MAC_BYTES);
        body.put(VERSION).putLong(issuedAt).putLong(epoch).put((byte) issuer.length).put(issuer);
        Mac mac = macs.get();
        mac.update(body.array(), 0, body.position());
        body.put(mac.doFinal(), 0, MAC_BYTES);
        return B64.encodeToString(body.array());
    }

    /** The nonce, when it is one a gateway issued and it is still good; null otherwise. */
    public Nonce read(String nonce) {
        if (nonce == null || nonce.length() > 400) {
            return null;
        }
        byte[] bytes;
        try {
            bytes = B64_DECODER.decode(nonce);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (bytes.length < 1 + 8 + 8 + 1 + MAC_BYTES || bytes[0] != VERSION) {
            return null;
        }
        int issuerLength = bytes[17] & 0xff;
        int signed = 18 + issuerLength;
        if (bytes.length != signed + MAC_BYTES) {
            return null;
        }
        Mac mac = macs.get();
        mac.update(bytes, 0, signed);
        if (!MessageDigest.isEqual(Arrays.copyOf(mac.doFinal(), MAC_BYTES), Arrays.copyOfRange(bytes, signed, bytes.length))) {
            return null;
        }
        ByteBuffer body = ByteBuffer.wrap(bytes);
        long issuedAt = body.getLong(1);
        long now = clock.instant().getEpochSecond();
        if (issuedAt > now + SKEW_SECONDS || now - issuedAt >= lifetimeSeconds) {
            return null;
        }
        return new Nonce(issuedAt, body.getLong(9), new String(bytes, 18, issuerLength, StandardCharsets.UTF_8));
    }

    /** Whether this replica issued the nonce (in its present run). */
    public boolean mine(Nonce nonce) {
        return nonce.epoch() == epoch && nonce.issuer().equals(address);
    }

    /**
     * For a nonce of this replica: true when the key's proof of this jti is used with it for the
     * first time, false for a replay; null when the nonce is not of this replica's present run or
     * no longer good (nothing is known of its proofs: the nonce is refused).
     */
    public Boolean firstUse(long nonceEpoch, long issuedAt, String jkt, String jti) {
        long now = clock.instant().getEpochSecond();
        if (nonceEpoch != epoch || now - issuedAt >= lifetimeSeconds || issuedAt > now + SKEW_SECONDS) {
            return null;
        }
        forgetExpired(now);
        return seen.computeIfAbsent(Math.floorDiv(issuedAt, STEP_SECONDS), step -> ConcurrentHashMap.newKeySet())
                .add(proofKey(jkt, jti));
    }

    /**
     * A proof's entry in the replay set: a digest of the key's thumbprint and the jti, each with its
     * length, so that no two (jkt, jti) pairs share an entry (a jti may hold spaces) and an entry's
     * size is fixed however long a jti the caller signs (a proof may be 4 KB).
     */
    static String proofKey(String jkt, String jti) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            for (String part : new String[] {jkt, jti}) {
                byte[] bytes = String.valueOf(part).getBytes(StandardCharsets.UTF_8);
                sha256.update(ByteBuffer.allocate(4).putInt(part == null ? -1 : bytes.length).array());
                sha256.update(bytes);
            }
            return B64.encodeToString(sha256.digest());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is missing", e);
        }
    }

    /** How many proofs' first uses are remembered now (the replay set's size, for tests). */
    int remembered() {
        return seen.values().stream().mapToInt(Set::size).sum();
    }

    /** The sets of steps whose nonces have all expired: nothing in them can be used again. */
    private void forgetExpired(long now) {
        long oldestGood = Math.floorDiv(now - lifetimeSeconds, STEP_SECONDS);
        if (seen.size() > lifetimeSeconds / STEP_SECONDS + 2) {
            seen.keySet().removeIf(step -> step < oldestGood);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        return mac(key).doFinal(data.getBytes(StandardCharsets.UTF_8));
    }

    private static Mac mac(byte[] key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing", e);
        }
    }
}
