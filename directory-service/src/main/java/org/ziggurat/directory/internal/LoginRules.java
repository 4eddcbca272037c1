package org.ziggurat.directory.internal;

import org.ziggurat.directory.DirectoryConfig;

import java.time.Duration;
import java.util.Locale;

/**
 * The sign-in throttle's rules that need no database: under which key an address is counted, and
 * how long a check of an account under attack waits.
 */
final class LoginRules {

    private LoginRules() {
    }

    /**
     * The key an address is counted under: an IPv4 address as it is; an IPv6 address by its /64
     * (one subscriber's network, whose 2^64 addresses would otherwise each get a count of their
     * own), an IPv4 address mapped into IPv6 as the IPv4 address. Anything else as written (lower case).
     */
    static String addressGroup(String address) {
        if (address == null) {
            return null;
        }
        String a = address.strip().toLowerCase(Locale.ROOT);
        if (a.startsWith("[") && a.endsWith("]")) {
            a = a.substring(1, a.length() - 1);
        }
        if (a.indexOf(':') < 0) {
            int[] v4 = ipv4(a);
            return v4 == null ? a : v4[0] + "." + v4[1] + "." + v4[2] + "." + v4[3];
        }
        int[] v6 = ipv6(a);
        if (v6 == null) {
            return a;
        }
        if (v6[0] == 0 && v6[1] == 0 && v6[2] == 0 && v6[3] == 0 && v6[4] == 0 && v6[5] == 0xffff) {
            return (v6[6] >> 8) + "." + (v6[6] & 0xff) + "." + (v6[7] >> 8) + "." + (v6[7] & 0xff);
        }
        return Integer.toHexString(v6[0]) + ":" + Integer.toHexString(v6[1]) + ":" + Integer.toHexString(v6[2]) + ":"
                + Integer.toHexString(v6[3]) + "::/64";
    }

    /** The four octets of a dotted-quad IPv4 address, or null when it is none. */
    static int[] ipv4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        int[] octets = new int[4];
        for (int i = 0; i < 4; i++) {
            if (!parts[i].matches("[0-9]{1,3}")) {
                return null;
            }
            octets[i] = Integer.parseInt(parts[i]);
            if (octets[i] > 255) {
                return null;
            }
        }
        return octets;
    }

    /** The eight 16-bit groups of an IPv6 address (with "::" and an IPv4 tail), or null when it is none. */
    static int[] ipv6(String s) {
        int gap = s.indexOf("::");
        if (gap < 0) {
            int[] all = groups(s, true);
            return all != null && all.length == 8 ? all : null;
        }
        // A second "::" leaves an empty group on one side, which is none.
        int[] front = groups(s.substring(0, gap), false);
        int[] back = groups(s.substring(gap + 2), true);
        if (front == null || back == null || front.length + back.length > 7) {
            return null;
        }
        int[] all = new int[8];
        System.arraycopy(front, 0, all, 0, front.length);
        System.arraycopy(back, 0, all, 8 - back.length, back.length);
        return all;
    }

    /** The groups of one side of "::" ({@code last}: it ends the address, so an IPv4 tail may close it). */
    private static int[] groups(String side, boolean last) {
        if (side.isEmpty()) {
            return new int[0];
        }
        String[] parts = side.split(":", -1);
        boolean v4Tail = last && parts[parts.length - 1].contains(".");
        int[] out = new int[parts.length + (v4Tail ? 1 : 0)];
        for (int i = 0; i < parts.length; i++) {
            if (v4Tail && i == parts.length - 1) {
                int[] v4 = ipv4(parts[i]);
                if (v4 == null) {
                    return null;
                }
                out[i] = v4[0] << 8 | v4[1];
                out[i + 1] = v4[2] << 8 | v4[3];
            } else if (parts[i].matches("[0-9a-f]{1,4}")) {
                out[i] = Integer.parseInt(parts[i], 16);
            } else {
                return null;
            }
        }
        return out;
    }

    /**
     * How long a check of an account waits before it is made: nothing for a caller (the account
     * from one address) that has no failures of that account before this check within the window
     * ({@code callerFailuresBefore}); else the account's slow-down after {@code accountFailuresBefore}
     * failures from every address ({@link #slowdownAfter}).
     */
    static Duration slowdown(int accountFailuresBefore, int callerFailuresBefore, DirectoryConfig.Slowdown slowdown,
            Duration callersTimeout) {
        return callerFailuresBefore <= 0 ? Duration.ZERO : slowdownAfter(accountFailuresBefore, slowdown, callersTimeout);
    }

    /**
     * The slow-down after {@code failures} failures of an account within the window: nothing until
     * {@code after}, then {@code first}, doubling with each further failure up to {@code longest},
     * and never past half of what the callers wait for ({@code callersTimeout}).
     */
    static Duration slowdownAfter(int failures, DirectoryConfig.Slowdown slowdown, Duration callersTimeout) {
        int beyond = failures - slowdown.after();
        if (beyond <= 0) {
            return Duration.ZERO;
        }
        long longest = Math.min(slowdown.longest().toMillis(), callersTimeout.toMillis() / 2);
        long wait = slowdown.first().toMillis() << Math.min(beyond - 1, 30);
        return Duration.ofMillis(Math.min(wait, longest));
    }
}
