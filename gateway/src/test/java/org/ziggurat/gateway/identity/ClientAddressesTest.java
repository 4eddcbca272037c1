package org.ziggurat.gateway.identity;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Which address is the caller's: forwarded headers count only from trusted proxies, read from the right. */
class ClientAddressesTest {

    final ClientAddresses behindIngress = new ClientAddresses(List.of("10.0.0.0/8", "::1", " "));

    @Test
    void withoutTrustedProxiesThePeerIsTheCaller() {
        ClientAddresses none = new ClientAddresses(List.of());
        assertEquals("10.1.2.3", none.of("10.1.2.3", "198.51.100.7", "for=198.51.100.7"));
    }

    @Test
    void anUntrustedPeersHeadersChangeNothing() {
        assertEquals("203.0.113.9", behindIngress.of("203.0.113.9", "198.51.100.7", null));
        assertEquals("203.0.113.9", behindIngress.of("203.0.113.9", null, "for=198.51.100.7"));
    }

    @Test
    void aTrustedProxyNamesTheCallerItSaw() {
        assertEquals("198.51.100.7", behindIngress.of("10.1.2.3", "198.51.100.7", null));
        assertEquals("2001:db8::7", behindIngress.of("::1", "2001:db8::7", null));
        assertEquals("198.51.100.7", behindIngress.of("10.1.2.3", null, "for=198.51.100.7;proto=https"));
        assertEquals("2001:db8::7", behindIngress.of("10.1.2.3", null, "for=\"[2001:db8::7]:4711\""));
    }

    /** What the caller wrote stands left of what the proxies appended: it is never believed. */
    @Test
    void theRightMostUntrustedAddressWins() {
        assertEquals("198.51.100.7", behindIngress.of("10.1.2.3", "1.2.3.4, 198.51.100.7", null));
        assertEquals("198.51.100.7", behindIngress.of("10.1.2.3", "1.2.3.4, 198.51.100.7, 10.9.9.9", null));
        assertEquals("198.51.100.7", behindIngress.of("10.1.2.3", null, "for=1.2.3.4, for=198.51.100.7"));
        // Every hop trusted: the left-most one.
        assertEquals("10.5.5.5", behindIngress.of("10.1.2.3", "10.5.5.5, 10.9.9.9", null));
    }

    @Test
    void garbageStopsAtTheLastBelievableAddress() {
        assertEquals("10.1.2.3", behindIngress.of("10.1.2.3", "not-an-address", null));
        assertEquals("10.9.9.9", behindIngress.of("10.1.2.3", "1.2.3.4, unknown, 10.9.9.9", null));
        assertEquals("10.1.2.3", behindIngress.of("10.1.2.3", "", null));
        assertEquals("10.1.2.3", behindIngress.of("10.1.2.3", null, "by=10.0.0.1"));
    }

    @Test
    void aBadSettingIsRefusedAtStart() {
        assertThrows(IllegalArgumentException.class, () -> new ClientAddresses(List.of("ingress.local")));
    }

    @Test
    void aSingleAddressTrustsThatAddressAlone() {
        ClientAddresses exact = new ClientAddresses(List.of("192.0.2.1", "2001:db8::1"));
        assertEquals(true, exact.isTrusted("192.0.2.1"));
        assertEquals(false, exact.isTrusted("192.0.2.2"));
        assertEquals(true, exact.isTrusted("2001:db8::1"));
        assertEquals(false, exact.isTrusted("2001:db8::2"));
        assertEquals(false, behindIngress.isTrusted("::2"));
        assertEquals(false, behindIngress.isTrusted("not-an-address"));
        assertEquals("not-an-address", behindIngress.of("not-an-address", "198.51.100.7", null));
    }

    @Test
    void portsAndQuotesAroundForwardedAddressesAreRemoved() {
        assertEquals("198.51.100.7", behindIngress.of("10.1.2.3", null, "for=198.51.100.7:4711"));
        assertEquals("198.51.100.7", behindIngress.of("10.1.2.3", "198.51.100.7:4711", null));
        assertEquals("10.1.2.3", behindIngress.of("10.1.2.3", null, "for=\""));
        assertEquals("10.1.2.3", behindIngress.of("10.1.2.3", null, "for=\"[2001:db8::7\""));
        assertEquals("10.1.2.3", behindIngress.of("10.1.2.3", null, null));
    }
}
