package org.ziggurat.platform.http;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The address rules of a URL the platform calls on someone else's word (a webhook's receiver, an
 * identity provider's endpoints): an absolute {@code https} URL (plain {@code http} only to a
 * loopback address the operator allowed), with a host, without credentials or fragment; every
 * address its host resolves to public, or in a network the operator allowed. The caller resolves
 * the name, checks every address with {@link #refusal}, and connects to the address it checked
 * (never to a second resolution: DNS rebinding), following no redirect.
 *
 * <p>events-service's {@code TargetAddresses} holds webhooks to these rules, with exact
 * host-and-port exceptions of its own.
 */
public final class PublicAddresses {

    public static final int MAX_URL_LENGTH = 2048;

    /** {@link #formFault}'s words for a URL with a user or password in it. */
    public static final String CARRIES_CREDENTIALS = "must not carry credentials";

    /**
     * Not public: this host, private networks, link-local (cloud metadata), shared, reserved,
     * multicast, documentation, benchmarking; and every IPv6 form that carries an IPv4 address
     * (refused whatever the address it carries: a translator or relay on the way would reach it).
     */
    static final List<Network> NOT_PUBLIC = Network.all("0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8",
            "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16",
            "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
            // IPv6: unspecified and loopback; the forms that carry an IPv4 address: IPv4-compatible
            // (::/96), IPv4-mapped (::ffff:0:0/96), IPv4-translated (SIIT, ::ffff:0:0:0/96), NAT64
            // (64:ff9b::/96, and the local-use 64:ff9b:1::/48), 6to4 (2002::/16) and Teredo (2001::/32,
            // within the IETF protocol assignments 2001::/23, none of them a receiver's);
            // discard-only, unique-local, link-local, site-local, multicast, documentation (both).
            "::/96", "::1/128", "::ffff:0:0/96", "::ffff:0:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48", "2001::/23",
            "2002::/16", "100::/64", "2001:db8::/32", "3fff::/20", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8");

    private final List<Network> allowed;

    /** {@code allowedNetworks}: the operator's exceptions, CIDR or single addresses. */
    public PublicAddresses(List<String> allowedNetworks) {
        this.allowed = Network.all(allowedNetworks.toArray(String[]::new));
    }

    /** The URL's form alone: why it may not be called, or null. */
    public static String formFault(String url) {
        if (url == null || url.isBlank()) {
            return "is required";
        }
        if (url.length() > MAX_URL_LENGTH) {
            return "must be at most " + MAX_URL_LENGTH + " characters";
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return "is not a URL";
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !scheme.equals("http")) {
            return "must be an https URL";
        }
        if (uri.getRawAuthority() == null || uri.getHost() == null || uri.getHost().isEmpty()) {
            return "must name a host";
        }
        if (uri.getRawUserInfo() != null) {
            return CARRIES_CREDENTIALS;
        }
        if (uri.getRawFragment() != null) {
            return "must not have a fragment";
        }
        return null;
    }

    /** The host of a URL whose form passed, without an IPv6 literal's brackets. */
    public static String host(URI uri) {
        String host = uri.getHost();
        return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    }

    /**
     * Why a URL whose form passed may not be called at the addresses its host resolved to, or null:
     * an address neither public nor allowed, or plain http to anything but an allowed loopback address.
     */
    public String refusal(URI uri, InetAddress[] addresses) {
        boolean ssl = "https".equalsIgnoreCase(uri.getScheme());
        if (addresses.length == 0) {
            return "the host " + host(uri) + " does not resolve";
        }
        for (InetAddress address : addresses) {
            if (!allowed(address)) {
                return "the host " + host(uri) + " resolves to " + address.getHostAddress() + ", a private or reserved address";
            }
            if (!ssl && !address.isLoopbackAddress()) {
                return "the URL must be https (plain http only to a loopback address the operator allowed)";
            }
        }
        return null;
    }

    /** Whether the address is public: in none of the reserved networks. */
    public static boolean isPublic(InetAddress address) {
        return NOT_PUBLIC.stream().noneMatch(n -> n.contains(address));
    }

    /** Public, or in a network the operator allowed. */
    public boolean allowed(InetAddress address) {
        return isPublic(address) || allowed.stream().anyMatch(n -> n.contains(address));
    }

    /**
     * An address literal's bytes (sixteen for every IPv6 form, an IPv4-mapped one too), as a
     * network of that one address holds them; {@link IllegalArgumentException} if it is not one.
     */
    public static byte[] addressBytes(String literal) {
        return Network.of(literal).prefix();
    }

    /** A network in CIDR notation (a single address: all its bits). */
    record Network(byte[] prefix, int bits) {

        static List<Network> all(String... cidrs) {
            List<Network> networks = new ArrayList<>();
            for (String cidr : cidrs) {
                networks.add(of(cidr.trim()));
            }
            return List.copyOf(networks);
        }

        static Network of(String cidr) {
            int slash = cidr.indexOf('/');
            String literal = slash < 0 ? cidr : cidr.substring(0, slash);
            if (!literal.matches("[0-9a-fA-F:.]+")) {
                throw new IllegalArgumentException("not an address: " + cidr);
            }
            try {
                byte[] bytes = sixteenIfIpv6(literal, InetAddress.getByName(literal).getAddress());
                int bits = slash < 0 ? bytes.length * 8 : Integer.parseInt(cidr.substring(slash + 1));
                if (bits < 0 || bits > bytes.length * 8) {
                    throw new IllegalArgumentException("bad prefix length: " + cidr);
                }
                return new Network(bytes, bits);
            } catch (UnknownHostException | NumberFormatException e) {
                throw new IllegalArgumentException("not a network: " + cidr, e);
            }
        }

        /**
         * An IPv6 literal's sixteen bytes: the JDK reads an IPv4-mapped one ({@code ::ffff:0:0})
         * as the IPv4 address it carries, but a DNS answer may hold the sixteen bytes themselves.
         */
        static byte[] sixteenIfIpv6(String literal, byte[] bytes) {
            if (bytes.length == 16 || !literal.contains(":")) {
                return bytes;
            }
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            System.arraycopy(bytes, 0, mapped, 12, 4);
            return mapped;
        }

        boolean contains(InetAddress address) {
            byte[] bytes = address.getAddress();
            if (bytes.length != prefix.length) {
                return false;
            }
            int whole = bits / 8;
            if (!Arrays.equals(bytes, 0, whole, prefix, 0, whole)) {
                return false;
            }
            int rest = bits % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (bytes[whole] & mask) == (prefix[whole] & mask);
        }
    }
}
