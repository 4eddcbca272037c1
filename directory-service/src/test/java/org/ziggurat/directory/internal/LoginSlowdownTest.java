package org.ziggurat.directory.internal;

import org.junit.jupiter.api.Test;
import org.ziggurat.directory.DirectoryConfig;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * How long an account's checks wait after its failures from every address: nothing, then doubling,
 * bounded, and never past half of what the callers wait; nothing at all for an address without
 * failures of its own. And under which key an address is counted (an IPv6 address by its /64).
 */
class LoginSlowdownTest {

    record Slowdown(int after, Duration first, Duration longest) implements DirectoryConfig.Slowdown {
    }

    static final DirectoryConfig.Slowdown DEFAULTS = new Slowdown(5, Duration.ofMillis(250), Duration.ofSeconds(1));
    static final Duration CALLERS = Duration.ofSeconds(5);

    @Test
    void nothingUntilTheThresholdThenDoublingUpToTheBound() {
        for (int failures = 0; failures <= 5; failures++) {
            assertEquals(Duration.ZERO, LoginRules.slowdownAfter(failures, DEFAULTS, CALLERS), failures + " failures");
        }
        assertEquals(Duration.ofMillis(250), LoginRules.slowdownAfter(6, DEFAULTS, CALLERS));
        assertEquals(Duration.ofMillis(500), LoginRules.slowdownAfter(7, DEFAULTS, CALLERS));
        assertEquals(Duration.ofMillis(1000), LoginRules.slowdownAfter(8, DEFAULTS, CALLERS));
        assertEquals(Duration.ofMillis(1000), LoginRules.slowdownAfter(9, DEFAULTS, CALLERS));
        // However many: bounded, and no overflow.
        assertEquals(Duration.ofSeconds(1), LoginRules.slowdownAfter(Integer.MAX_VALUE, DEFAULTS, CALLERS));
        assertEquals(Duration.ofSeconds(1), LoginRules.slowdownAfter(1_000, DEFAULTS, CALLERS));
        // An odd first wait, so that a shift by a negative count would show.
        DirectoryConfig.Slowdown odd = new Slowdown(5, Duration.ofMillis(251), Duration.ofSeconds(1));
        assertEquals(Duration.ZERO, LoginRules.slowdownAfter(5, odd, CALLERS));
        assertEquals(Duration.ofMillis(251), LoginRules.slowdownAfter(6, odd, CALLERS));
        DirectoryConfig.Slowdown longer = new Slowdown(5, Duration.ofMillis(250), Duration.ofSeconds(2));
        assertEquals(Duration.ofMillis(2000), LoginRules.slowdownAfter(9, longer, CALLERS));
        assertEquals(Duration.ofMillis(2000), LoginRules.slowdownAfter(40, longer, CALLERS));
    }

    /**
     * The review's finding: a slow-down of up to 10 s behind a caller that waits 5 s turned every
     * check of an account under attack into a 503, its owner's too. Whatever is configured, a wait
     * is never more than half of what the callers wait for.
     */
    @Test
    void aWaitIsNeverMoreThanHalfOfWhatTheCallersWaitFor() {
        DirectoryConfig.Slowdown configuredLong = new Slowdown(5, Duration.ofMillis(250), Duration.ofSeconds(10));
        assertEquals(Duration.ofMillis(2500), LoginRules.slowdownAfter(11, configuredLong, CALLERS));
        assertEquals(Duration.ofMillis(2500), LoginRules.slowdownAfter(Integer.MAX_VALUE, configuredLong, CALLERS));
        assertEquals(Duration.ofMillis(2000), LoginRules.slowdownAfter(9, configuredLong, CALLERS));
        assertEquals(Duration.ofMillis(500), LoginRules.slowdownAfter(11, configuredLong, Duration.ofSeconds(1)));
        assertEquals(Duration.ofMillis(250), LoginRules.slowdownAfter(6, configuredLong, Duration.ofSeconds(1)));
    }

    /** An address that has not failed for the account (or whose last check of it passed) is not slowed by the others' failures. */
    @Test
    void onlyAnAddressThatFailedForTheAccountIsSlowedDown() {
        assertEquals(Duration.ZERO, LoginRules.slowdown(40, 0, DEFAULTS, CALLERS));
        assertEquals(Duration.ZERO, LoginRules.slowdown(40, -1, DEFAULTS, CALLERS));
        assertEquals(Duration.ofSeconds(1), LoginRules.slowdown(40, 1, DEFAULTS, CALLERS));
        assertEquals(Duration.ofMillis(250), LoginRules.slowdown(6, 1, DEFAULTS, CALLERS));
        assertEquals(Duration.ZERO, LoginRules.slowdown(5, 3, DEFAULTS, CALLERS));
    }

    @Test
    void ipv4AddressesAreCountedAsTheyAre() {
        assertEquals("203.0.113.7", LoginRules.addressGroup("203.0.113.7"));
        assertEquals("10.0.0.1", LoginRules.addressGroup(" 10.0.0.1 "));
        assertEquals("10.0.0.1", LoginRules.addressGroup("010.000.000.001"));
        assertEquals("255.255.255.255", LoginRules.addressGroup("255.255.255.255"));
        assertEquals("255.255.255.1", LoginRules.addressGroup("255.255.255.01"));
        assertNull(LoginRules.addressGroup(null));
        // Not an address: as written, in lower case.
        assertEquals("256.1.1.1", LoginRules.addressGroup("256.1.1.1"));
        assertEquals("1.2.3", LoginRules.addressGroup("1.2.3"));
        assertEquals("1.2.3.4.5", LoginRules.addressGroup("1.2.3.4.5"));
        assertEquals("cafe", LoginRules.addressGroup("CAFE"));
        assertEquals("1.2.3.x", LoginRules.addressGroup("1.2.3.x"));
    }

    /** The review's finding: every address of one IPv6 subscriber's /64 had limits of its own. */
    @Test
    void ipv6AddressesAreCountedByTheirSlash64() {
        String group = "2001:db8:85a3:8d3::/64";
        assertEquals(group, LoginRules.addressGroup("2001:db8:85a3:8d3:1319:8a2e:370:7348"));
        assertEquals(group, LoginRules.addressGroup("2001:0DB8:85A3:08D3:ffff:ffff:ffff:ffff"));
        assertEquals(group, LoginRules.addressGroup("2001:db8:85a3:8d3::1"));
        assertEquals(group, LoginRules.addressGroup("[2001:db8:85a3:8d3::]"));
        assertEquals("2001:db8:0:0::/64", LoginRules.addressGroup("2001:db8::1"));
        assertEquals("2001:db8:0:1::/64", LoginRules.addressGroup("2001:db8:0:1:0:0:0:1"));
        assertEquals("0:0:0:0::/64", LoginRules.addressGroup("::1"));
        assertEquals("0:0:0:0::/64", LoginRules.addressGroup("::"));
        assertEquals("fe80:0:0:0::/64", LoginRules.addressGroup("fe80::"));
        assertEquals("1:2:3:4::/64", LoginRules.addressGroup("1:2:3:4:5:6:1.2.3.4"));
        assertEquals("1:2:3:4::/64", LoginRules.addressGroup("1:2:3:4::1.2.3.4"));
        assertEquals("1:2:3:4::/64", LoginRules.addressGroup("1:2:3:4:5:6::8"));
        assertEquals("0:2:3:4::/64", LoginRules.addressGroup("::2:3:4:5:6:7:8"));
        // An IPv4 address mapped into IPv6 is that IPv4 address.
        assertEquals("192.0.2.33", LoginRules.addressGroup("::ffff:192.0.2.33"));
        assertEquals("192.0.2.33", LoginRules.addressGroup("::ffff:c000:221"));
        assertEquals("0:0:0:0::/64", LoginRules.addressGroup("::fffe:c000:221"));
        assertEquals("0:0:0:1::/64", LoginRules.addressGroup("0:0:0:1:0:ffff:c000:221"));
        assertEquals("0:0:1:0::/64", LoginRules.addressGroup("0:0:1:0:0:ffff:c000:221"));
        assertEquals("0:1:0:0::/64", LoginRules.addressGroup("0:1:0:0:0:ffff:c000:221"));
        assertEquals("1:0:0:0::/64", LoginRules.addressGroup("1:0:0:0:0:ffff:c000:221"));
        assertEquals("0:0:0:0::/64", LoginRules.addressGroup("0:0:0:0:1:ffff:c000:221"));
        // Not an address: as written, in lower case.
        for (String none : new String[] {"1::2::3", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7::8", "12345::",
                "g::1", ":1:2:3:4:5:6:7", "1:2:3:4:5:6:7:", "::1.2.3", "1.2.3.4::", "::1.2.3.4:5", "1:2:3:4:5:6:7:1.2.3.4",
                "1:2:3:4:5:6:1.2.3.400", "::::", ".1.2.3", "1:2:3:4:5:6:7:.1.2.3"}) {
            assertEquals(none, LoginRules.addressGroup(none), none);
        }
    }
}
