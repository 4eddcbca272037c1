package org.ziggurat.directory.securitylog;

import java.util.regex.Pattern;

/**
 * A device as the security log keeps it: the browser's User-Agent as given (bounded), and its key
 * without version numbers, so that "a sign-in from a new device" is not every browser update.
 */
public final class DeviceNames {

    static final int MAX = 300;
    private static final Pattern VERSIONS = Pattern.compile("[0-9][0-9._]*");
    private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

    private DeviceNames() {
    }

    /** The User-Agent, control characters removed, at most 300 characters; null when none. */
    public static String device(String userAgent) {
        if (userAgent == null) {
            return null;
        }
        String clean = CONTROL.matcher(userAgent).replaceAll("").strip();
        if (clean.isEmpty()) {
            return null;
        }
        return clean.length() > MAX ? clean.substring(0, MAX) : clean;
    }

    /** The device's key: its name without version numbers, lower case; null when no device is known. */
    public static String key(String device) {
        return device == null ? null : VERSIONS.matcher(device).replaceAll("").toLowerCase(java.util.Locale.ROOT);
    }
}
