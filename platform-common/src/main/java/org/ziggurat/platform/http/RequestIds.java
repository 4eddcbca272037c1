package org.ziggurat.platform.http;

import java.util.UUID;
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

    public static String generate() {
        return UUID.randomUUID().toString();
    }
}
