package org.ziggurat.platform.http;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.URI;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The address rules of a URL called on someone else's word: form, resolved addresses, plain http. */
class PublicAddressesTest {

    private static InetAddress[] at(String... literals) throws Exception {
        InetAddress[] addresses = new InetAddress[literals.length];
        for (int i = 0; i < literals.length; i++) {
            addresses[i] = InetAddress.getByName(literals[i]);
        }
        return addresses;
    }

    @Test
    void theFormAlone() {
        assertNull(PublicAddresses.formFault("https://idp.example/realms/x"));
        assertEquals("must not carry credentials", PublicAddresses.formFault("https://u:p@idp.example/"));
        assertEquals("must be an https URL", PublicAddresses.formFault("file:///etc/passwd"));
        assertEquals("must not have a fragment", PublicAddresses.formFault("https://idp.example/#x"));
        assertEquals("must name a host", PublicAddresses.formFault("https:///x"));
        assertEquals("is required", PublicAddresses.formFault(" "));
    }

    @Test
    void everyAddressMustBePublicOrAllowed() throws Exception {
        PublicAddresses none = new PublicAddresses(List.of());
        URI https = URI.create("https://idp.example/");
        assertNull(none.refusal(https, at("93.184.215.14")));
        assertNotNull(none.refusal(https, at("93.184.215.14", "10.0.0.1")), "one private address is enough");
        assertNotNull(none.refusal(https, at("169.254.169.254")), "cloud metadata");
        assertNotNull(none.refusal(https, at("::ffff:10.0.0.1")), "an IPv6 form of a private one");
        assertNotNull(none.refusal(https, at("127.0.0.1")));
        PublicAddresses loopback = new PublicAddresses(List.of("127.0.0.1/32"));
        assertNull(loopback.refusal(URI.create("http://127.0.0.1:8080/"), at("127.0.0.1")), "plain http to allowed loopback");
        assertNotNull(loopback.refusal(URI.create("http://127.0.0.2:8080/"), at("127.0.0.2")), "another loopback address");
        assertNotNull(new PublicAddresses(List.of("10.0.0.0/8")).refusal(URI.create("http://10.0.0.1/"), at("10.0.0.1")),
                "plain http only to loopback");
        assertNull(new PublicAddresses(List.of("10.0.0.0/8")).refusal(https, at("10.0.0.1")));
    }
}
