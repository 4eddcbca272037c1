package org.ziggurat.platform.logging;

/**
 * A value from outside (a provider's error code, a client's id) made safe for one log line: the
 * characters of an RFC 6749 error code and of an id pass ({@code A-Z a-z 0-9 . _ ~ - : /}); every
 * other one, a space, a quote, a line break, is written as {@code %XX} (its UTF-8 bytes), so that no
 * value can end the line, open a field of its own, or pass for another event. At most 100
 * characters are kept; null is {@code -}.
 */
public final class LogValues {

    static final int MOST = 100;

    private LogValues() {
    }

    public static String escaped(String value) {
        if (value == null) {
            return "-";
        }
        StringBuilder out = new StringBuilder();
        for (byte b : value.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "._~-:/".indexOf(c) >= 0) {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
            if (out.length() >= MOST) {
                return out.substring(0, MOST) + "...";
            }
        }
        return out.toString();
    }
}
