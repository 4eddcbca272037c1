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
