package org.ziggurat.platform.logging;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * The request id that ties a problem body to the server's log lines. The gateway accepts a
 * caller's {@code X-Request-Id} when it is sane, generates one otherwise, and forwards it.
 */
public final class RequestIds {

    public static final String HEADER = "X-Request-Id";

    private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    private RequestIds() {
    }

    /** The caller's id when it is a short token of safe characters, else a new one. */
    public static String acceptOrGenerate(String offered) {
        return offered != null && SANE.matcher(offered).matches() ? offered : generate();
    }

    /**
     * A random (version 4) UUID. A request id must be unique, not secret: the caller sees it and
     * the logs carry it. {@code UUID.randomUUID()} drew each one from SecureRandom, a lock and a
     * read of the OS's generator per request at the gateway.
     */
    public static String generate() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = random.nextLong() & ~0xF000L | 0x4000L;
        long low = random.nextLong() & 0x3FFFFFFFFFFFFFFFL | 0x8000000000000000L;
        return new UUID(high, low).toString();
    }
}
