package org.ziggurat.events.webhooks;

import org.junit.jupiter.api.Test;
import org.ziggurat.platform.testing.WebhookReceiver;

import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The webhooks' rules that need no server: targets, signatures, retries. Plain JUnit. */
class WebhookRulesTest {

    static TargetAddresses targets(String... allowed) {
        WebhookSettings settings = (WebhookSettings) java.lang.reflect.Proxy.newProxyInstance(
                WebhookSettings.class.getClassLoader(), new Class<?>[] {WebhookSettings.class}, (proxy, method, args) ->
                        method.getName().equals("allowedNetworks") ? Optional.of(List.of(allowed)) : null);
        return new TargetAddresses(settings, null);
    }

    static InetAddress ip(String literal) throws Exception {
        return InetAddress.getByName(literal);
    }

    @Test
    void privateReservedAndMetadataAddressesAreRefusedUnlessAllowed() throws Exception {
        TargetAddresses none = targets();
        for (String refused : List.of("10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.254", "192.168.1.1", "127.0.0.1",
                "127.1.2.3", "169.254.169.254", "100.64.0.1", "100.127.255.254", "0.0.0.0", "0.1.2.3", "224.0.0.1", "240.0.0.1",
                "255.255.255.255", "192.0.2.1", "198.18.0.1", "198.51.100.7", "203.0.113.9", "192.0.0.8", "::1", "::",
                "fd00::1", "fc00::1", "fe80::1", "fec0::1", "ff02::1", "2001:db8::1", "64:ff9b::a00:1", "2002:a00:1::1",
                "::ffff:10.0.0.1", "::a00:1")) {
            assertFalse(none.allowed(ip(refused)), refused);
        }
        for (String allowed : List.of("8.8.8.8", "1.1.1.1", "172.15.255.255", "172.32.0.1", "100.63.255.255", "100.128.0.1",
                "9.255.255.255", "11.0.0.0", "192.167.255.255", "192.169.0.0", "169.253.255.255", "169.255.0.0",
                "2606:4700::1111", "2a00:1450::1")) {
            assertTrue(none.allowed(ip(allowed)), allowed);
        }
        TargetAddresses some = targets("127.0.0.1/32", "10.20.0.0/16", "fd12:3456::/32");
        assertTrue(some.allowed(ip("127.0.0.1")));
        assertFalse(some.allowed(ip("127.0.0.2")));
        assertTrue(some.allowed(ip("10.20.255.1")));
        assertFalse(some.allowed(ip("10.21.0.1")));
        assertTrue(some.allowed(ip("fd12:3456::9")));
        assertFalse(some.allowed(ip("fd12:3457::9")));
        assertTrue(targets("10.0.0.0/12").allowed(ip("10.15.255.255")));
        assertFalse(targets("10.0.0.0/12").allowed(ip("10.16.0.0")));
        assertTrue(targets("10.0.0.7").allowed(ip("10.0.0.7")));
        assertFalse(targets("10.0.0.7").allowed(ip("10.0.0.8")));
        assertThrows(IllegalArgumentException.class, () -> targets("10.0.0.0/33"));
        assertThrows(IllegalArgumentException.class, () -> targets("example.org/8"));
        assertThrows(IllegalArgumentException.class, () -> targets("10.0.0.0/x"));
    }

    static InetAddress v6(String literal) throws Exception {
        // As a DNS answer gives it: sixteen bytes, even for a form that carries an IPv4 address
        // (InetAddress.getByName would make an IPv4-mapped literal an IPv4 address).
        byte[] bytes = literal.contains(".") ? mapped(literal) : InetAddress.getByName(literal).getAddress();
        return java.net.Inet6Address.getByAddress(null, bytes, -1);
    }

    /** {@code ::ffff:a.b.c.d} as sixteen bytes. */
    private static byte[] mapped(String literal) throws Exception {
        byte[] v4 = InetAddress.getByName(literal.substring(literal.lastIndexOf(':') + 1)).getAddress();
        byte[] bytes = new byte[16];
        bytes[10] = (byte) 0xff;
        bytes[11] = (byte) 0xff;
        System.arraycopy(v4, 0, bytes, 12, 4);
        return bytes;
    }

    /**
     * Every IPv6 form that carries an IPv4 address is refused, whatever the address it carries:
     * IPv4-mapped and -translated, IPv4-compatible, NAT64 (both prefixes), 6to4, Teredo; so are the
     * IETF's other special blocks (benchmarking, discard-only, the newer documentation prefix).
     */
    @Test
    void ipv6FormsCarryingAnIpv4AddressAreRefusedWhateverTheyCarry() throws Exception {
        TargetAddresses none = targets();
        for (String refused : List.of("::ffff:10.0.0.1", "::ffff:8.8.8.8", "::ffff:127.0.0.1", "::ffff:169.254.169.254")) {
            InetAddress address = v6(refused);
            assertEquals(16, address.getAddress().length, refused);
            assertFalse(none.allowed(address), refused);
            assertFalse(TargetAddresses.isPublic(address), refused);
        }
        for (String refused : List.of("::ffff:0:a00:1", "::ffff:0:808:808", "::808:808", "64:ff9b::808:808",
                "64:ff9b:1::a00:1", "64:ff9b:1:ffff:ffff:ffff:ffff:ffff", "2002:808:808::1",
                "2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001::1", "2001:0:ffff:ffff:ffff:ffff:ffff:ffff", "2001:2::1",
                "2001:1ff:ffff::1", "100::1", "100::ffff:ffff:ffff:ffff", "3fff::1", "3fff:fff:ffff::1")) {
            InetAddress address = v6(refused);
            assertFalse(none.allowed(address), refused);
        }
        for (String allowed : List.of("2001:200::1", "2001:4860:4860::8888", "2003::1", "64:ff9b:2::1", "64:ff9a:ffff::1",
                "100:0:0:1::1", "3fff:1000::1", "2606:4700::1111")) {
            assertTrue(none.allowed(v6(allowed)), allowed);
            assertTrue(TargetAddresses.isPublic(v6(allowed)), allowed);
        }
        // An operator may allow some of them as IPv6 networks (sixteen bytes, as the DNS gives them).
        TargetAddresses mappedTen = targets("::ffff:10.0.0.0/104");
        assertTrue(mappedTen.allowed(v6("::ffff:10.0.0.5")));
        assertFalse(mappedTen.allowed(v6("::ffff:11.0.0.5")));
        assertFalse(mappedTen.allowed(ip("10.0.0.5")), "an IPv6 network holds no IPv4 address");
        assertTrue(targets("0.0.0.0/0").allowed(ip("10.1.2.3")));
        // A target whose name resolves to one of them among public addresses is refused.
        TargetAddresses.Refused refused = assertThrows(TargetAddresses.Refused.class, () -> none.target(
                URI.create("https://mapped.example.org/"), "mapped.example.org", new InetAddress[] {ip("8.8.8.8"),
                        v6("::ffff:10.0.0.1")}));
        assertTrue(refused.getMessage().contains("private or reserved"), refused.getMessage());
    }

    /**
     * An exact host (or address) and port is allowed, and nothing else there: another port, another
     * name that resolves to the same address, another address. Networks (CIDR) stay as before.
     */
    @Test
    void anExactHostAndPortIsAllowedAndNothingElseThere() throws Exception {
        TargetAddresses pairs = targets("10.0.0.7:8443", " [fd00::7]:443 ", "SIEM.internal:9443", "127.0.0.1:8088",
                "10.9.0.0/16");
        InetAddress[] seven = {ip("10.0.0.7")};
        TargetAddresses.Target t = pairs.target(URI.create("https://10.0.0.7:8443/collect"), "10.0.0.7", seven);
        assertEquals(8443, t.port());
        assertFalse(t.open(), "a private target is not open");
        // By a name that resolves to it: the address and port are what was allowed.
        assertEquals(8443, pairs.target(URI.create("https://collector.example.org:8443/"), "collector.example.org", seven).port());
        assertThrows(TargetAddresses.Refused.class, () -> pairs.target(URI.create("https://10.0.0.7:8444/"), "10.0.0.7", seven));
        assertThrows(TargetAddresses.Refused.class, () -> pairs.target(URI.create("https://10.0.0.7/"), "10.0.0.7", seven));
        assertThrows(TargetAddresses.Refused.class, () -> pairs.target(URI.create("https://10.0.0.8:8443/"), "10.0.0.8",
                new InetAddress[] {ip("10.0.0.8")}));
        // IPv6 in brackets; its default port.
        assertEquals(443, pairs.target(URI.create("https://[fd00::7]/"), "fd00::7", new InetAddress[] {ip("fd00::7")}).port());
        assertThrows(TargetAddresses.Refused.class, () -> pairs.target(URI.create("https://[fd00::8]/"), "fd00::8",
                new InetAddress[] {ip("fd00::8")}));
        // A name allows what it resolves to, on its port, whatever its case; another name does not.
        assertFalse(pairs.target(URI.create("https://siem.INTERNAL:9443/in"), "siem.INTERNAL", new InetAddress[] {ip("10.3.3.3"),
                ip("fd00::3")}).open());
        assertThrows(TargetAddresses.Refused.class, () -> pairs.target(URI.create("https://siem.internal:9444/"), "siem.internal",
                new InetAddress[] {ip("10.3.3.3")}));
        assertThrows(TargetAddresses.Refused.class, () -> pairs.target(URI.create("https://other.internal:9443/"),
                "other.internal", new InetAddress[] {ip("10.3.3.3")}));
        // Plain http only to a loopback pair.
        assertFalse(pairs.target(URI.create("http://127.0.0.1:8088/"), "127.0.0.1", new InetAddress[] {ip("127.0.0.1")}).ssl());
        assertThrows(TargetAddresses.Refused.class, () -> pairs.target(URI.create("http://127.0.0.1:8089/"), "127.0.0.1",
                new InetAddress[] {ip("127.0.0.1")}));
        assertThrows(TargetAddresses.Refused.class, () -> pairs.target(URI.create("http://10.0.0.7:8443/"), "10.0.0.7", seven));
        // A network, as older settings say: any port in it.
        assertFalse(pairs.target(URI.create("https://10.9.1.1:1234/"), "10.9.1.1", new InetAddress[] {ip("10.9.1.1")}).open());
        // A public target is open; the pairs change nothing for it.
        assertTrue(pairs.target(URI.create("https://example.org:8443/"), "example.org", new InetAddress[] {ip("8.8.8.8")}).open());
        assertTrue(targets().target(URI.create("https://example.org/"), "example.org", new InetAddress[] {ip("8.8.8.8"),
                ip("2606:4700::1111")}).open());
        // One private address among public ones: not open.
        assertFalse(pairs.target(URI.create("https://siem.internal:9443/"), "siem.internal", new InetAddress[] {ip("8.8.8.8"),
                ip("10.3.3.3")}).open());

        for (String bad : List.of("siem.internal", "siem.internal:", "siem.internal:0", "siem.internal:65536",
                "siem.internal:99999", "siem.internal:x", "siem_internal:80", "-siem.internal:80", "[10.0.0.1]:80", "[fd00::1]",
                "[fd00::1]:", "[]:80", "10.0.0.1:", ":80", "10.0.0.1:80/32")) {
            assertThrows(IllegalArgumentException.class, () -> targets(bad), bad);
        }
        assertTrue(TargetAddresses.Endpoint.isOne("siem.internal:1"));
        assertTrue(TargetAddresses.Endpoint.isOne("[fd00::1]:1"));
        assertFalse(TargetAddresses.Endpoint.isOne("fd00::1"));
        assertFalse(TargetAddresses.Endpoint.isOne("10.0.0.1"));
        assertFalse(TargetAddresses.Endpoint.isOne("10.0.0.0/8"));
        assertFalse(TargetAddresses.Endpoint.isOne(":80"));
        assertThrows(IllegalArgumentException.class, () -> TargetAddresses.Endpoint.of(":80"));
        assertThrows(IllegalArgumentException.class, () -> TargetAddresses.Endpoint.of("[fd00"));
        assertEquals(65535, TargetAddresses.Endpoint.of("a:65535").port());
        assertEquals(1, TargetAddresses.Endpoint.of("a:1").port());
    }

    /** The log keeps no byte of an answer from a target that is not public: it would read an internal endpoint back. */
    @Test
    void anAnswerIsKeptOnlyFromAPublicTarget() throws Exception {
        TargetAddresses allowed = targets("127.0.0.1/32", "10.0.0.7:443");
        assertEquals(1024, DeliveryWorker.kept(allowed.target(URI.create("https://example.org/"), "example.org",
                new InetAddress[] {ip("8.8.8.8")}), 1024));
        assertEquals(0, DeliveryWorker.kept(allowed.target(URI.create("http://127.0.0.1:9090/q/metrics"), "127.0.0.1",
                new InetAddress[] {ip("127.0.0.1")}), 1024));
        assertEquals(0, DeliveryWorker.kept(allowed.target(URI.create("https://10.0.0.7/q/metrics"), "10.0.0.7",
                new InetAddress[] {ip("10.0.0.7")}), 1024));
    }

    @Test
    void aTargetMustBeHttpsOrAnAllowedLoopbackAndEveryAddressAllowed() throws Exception {
        TargetAddresses loopback = targets("127.0.0.1/32");
        TargetAddresses.Target t = loopback.target(URI.create("http://127.0.0.1:8088/hook?x=1"), "127.0.0.1",
                new InetAddress[] {ip("127.0.0.1")});
        assertEquals(8088, t.port());
        assertFalse(t.ssl());
        assertEquals("/hook?x=1", t.requestUri());
        assertEquals("/", loopback.target(URI.create("https://example.org"), "example.org", new InetAddress[] {ip("8.8.8.8")})
                .requestUri());
        assertEquals(443, loopback.target(URI.create("https://example.org/a"), "example.org", new InetAddress[] {ip("8.8.8.8")})
                .port());
        assertEquals(80, loopback.target(URI.create("http://localhost/a"), "localhost", new InetAddress[] {ip("127.0.0.1")})
                .port());
        // Plain http to a public address: refused.
        assertThrows(TargetAddresses.Refused.class, () -> loopback.target(URI.create("http://example.org/"), "example.org",
                new InetAddress[] {ip("8.8.8.8")}));
        // One refused address among several refuses the name (DNS answers may rotate).
        TargetAddresses.Refused refused = assertThrows(TargetAddresses.Refused.class, () -> targets().target(
                URI.create("https://mixed.example.org/"), "mixed.example.org", new InetAddress[] {ip("8.8.8.8"), ip("10.0.0.5")}));
        assertTrue(refused.getMessage().contains("10.0.0.5"), refused.getMessage());

        assertNull(TargetAddresses.formFault("https://example.org/hooks"));
        assertEquals("is required", TargetAddresses.formFault(" "));
        assertEquals("is required", TargetAddresses.formFault(null));
        assertEquals("must be an https URL", TargetAddresses.formFault("ftp://example.org/"));
        assertEquals("must be an https URL", TargetAddresses.formFault("example.org/hooks"));
        assertEquals("must name a host", TargetAddresses.formFault("https:///path"));
        assertEquals("is not a URL", TargetAddresses.formFault("https://exa mple.org/"));
        assertTrue(TargetAddresses.formFault("https://u:p@example.org/").startsWith("must not carry credentials"));
        assertEquals("must not have a fragment", TargetAddresses.formFault("https://example.org/#x"));
        assertTrue(TargetAddresses.formFault("https://example.org/" + "a".repeat(2048)).startsWith("must be at most"));
    }

    @Test
    void signaturesAreStandardWebhooksOnesUnderEachSecret() {
        String first = "whsec_" + java.util.Base64.getEncoder().encodeToString("a 32-byte secret for the tests!!".getBytes());
        String second = "whsec_" + java.util.Base64.getEncoder().encodeToString("another 32-byte secret for tests".getBytes());
        byte[] body = "{\"id\":\"1\"}".getBytes(StandardCharsets.UTF_8);
        long now = Instant.now().getEpochSecond();
        String header = WebhookSecrets.signature("msg_1", now, body, List.of(first, second));
        assertEquals(2, header.split(" ").length);
        assertTrue(header.startsWith("v1,"));
        Map<String, List<String>> headers = Map.of("webhook-id", List.of("msg_1"), "webhook-timestamp", List.of(Long.toString(now)),
                "webhook-signature", List.of(header));
        WebhookReceiver.verify(new WebhookReceiver.Received("/", headers, body, Instant.now()), first);
        WebhookReceiver.verify(new WebhookReceiver.Received("/", headers, body, Instant.now()), second);
        // The id and the timestamp are signed too.
        Map<String, List<String>> otherId = Map.of("webhook-id", List.of("msg_2"), "webhook-timestamp", List.of(Long.toString(now)),
                "webhook-signature", List.of(header));
        assertThrows(AssertionError.class, () -> WebhookReceiver.verify(new WebhookReceiver.Received("/", otherId, body,
                Instant.now()), first));
        // Known answer: HMAC-SHA256 of "msg_1.1700000000.{}" under the first secret's bytes.
        assertEquals("v1,feHsWSfNX3sVOfLcc6MZSX/vVhm7756xxqhQNkWkBsw=", WebhookSecrets.signature("msg_1", 1_700_000_000L,
                "{}".getBytes(StandardCharsets.UTF_8), List.of(first)));
    }

    @Test
    void retriesWaitLongerEachTimeWithJitterUpToTheLongest() {
        Duration first = Duration.ofSeconds(10);
        Duration longest = Duration.ofHours(1);
        for (int i = 0; i < 200; i++) {
            Duration one = DeliveryWorker.retryAfter(1, first, longest);
            assertTrue(one.toMillis() >= 5_000 && one.toMillis() <= 10_000, one.toString());
            Duration three = DeliveryWorker.retryAfter(3, first, longest);
            assertTrue(three.toMillis() >= 20_000 && three.toMillis() <= 40_000, three.toString());
            Duration many = DeliveryWorker.retryAfter(40, first, longest);
            assertTrue(many.toMillis() >= 1_800_000 && many.toMillis() <= 3_600_000, many.toString());
            Duration zeroth = DeliveryWorker.retryAfter(0, first, longest);
            assertTrue(zeroth.toMillis() >= 5_000 && zeroth.toMillis() <= 10_000, zeroth.toString());
        }
        long distinct = java.util.stream.IntStream.range(0, 50).mapToObj(i -> DeliveryWorker.retryAfter(5, first, longest))
                .distinct().count();
        assertTrue(distinct > 10, "jitter: " + distinct + " distinct waits of 50");
    }
}
