package org.ziggurat.events.webhooks;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Where a webhook may point: receivers must not be a way into the platform's own network (SSRF).
 * A target is an absolute {@code https} URL (plain {@code http} only to a loopback address the
 * operator allowed), without credentials or fragment; every address its host resolves to must be
 * public, or allowed by the operator ({@link WebhookSettings#allowedNetworks}): an exact host and
 * port ({@code siem.internal:8443}, {@code 10.0.0.7:8443}, {@code [fd00::7]:8443}), or, as older
 * settings say, a network (CIDR, or one address on any port). The check runs when a subscription is
 * saved and again before every attempt, and the delivery connects to the address checked, not to a
 * second resolution of the name (DNS rebinding). A target that is not public is answered for in
 * status only: its answer's body is never kept ({@link Target#open}), so a webhook does not read an
 * internal endpoint back through the delivery log.
 */
@ApplicationScoped
public class TargetAddresses {

    static final int MAX_URL_LENGTH = 2048;

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
    private final List<Endpoint> allowedEndpoints;
    private final Vertx vertx;

    TargetAddresses(WebhookSettings settings, Vertx vertx) {
        this.vertx = vertx;
        List<String> networks = new ArrayList<>();
        List<Endpoint> endpoints = new ArrayList<>();
        for (String entry : settings.allowedNetworks().orElse(List.of())) {
            String trimmed = entry.trim();
            if (Endpoint.isOne(trimmed)) {
                endpoints.add(Endpoint.of(trimmed));
            } else {
                networks.add(trimmed);
            }
        }
        this.allowed = Network.all(networks.toArray(String[]::new));
        this.allowedEndpoints = List.copyOf(endpoints);
    }

    /**
     * A URL that may be a target, and where to connect to. {@code open}: every address of it is
     * public; a target the operator let into a private network is not, and its answers' bodies are not kept.
     */
    public record Target(URI url, String host, int port, boolean ssl, InetAddress address, boolean open) {
        /** The path and query as sent. */
        public String requestUri() {
            String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
            return url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
        }
    }

    /** Refused: why, in words for the person who set the URL. */
    public static final class Refused extends RuntimeException {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /** The URL's form alone: the reason it cannot be a target, or null. */
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
            return "must not carry credentials (the signature proves the sender)";
        }
        if (uri.getRawFragment() != null) {
            return "must not have a fragment";
        }
        return null;
    }

    /** Resolves the URL's host (off the event loop) and checks every address; fails with {@link Refused}. */
    public Uni<Target> check(String url) {
        String fault = formFault(url);
        if (fault != null) {
            return Uni.createFrom().failure(new Refused("The URL " + fault + "."));
        }
        URI uri = URI.create(url);
        String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1) : uri.getHost();
        // The JDK's resolver blocks: on a worker, the answer back on the caller's context (Hibernate
        // Reactive goes on from there only on its event loop).
        return Uni.createFrom().completionStage(() -> vertx.executeBlocking(() -> resolve(host), false).toCompletionStage())
                .map(addresses -> target(uri, host, addresses));
    }

    private static InetAddress[] resolve(String host) {
        try {
            return InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new Refused("The host " + host + " does not resolve.");
        }
    }

    Target target(URI uri, String host, InetAddress[] addresses) {
        boolean ssl = uri.getScheme().equalsIgnoreCase("https");
        int port = uri.getPort() != -1 ? uri.getPort() : ssl ? 443 : 80;
        boolean open = true;
        for (InetAddress address : addresses) {
            if (!isPublic(address)) {
                open = false;
                if (!allowed(address, host, port)) {
                    throw new Refused("The host " + host + " resolves to " + address.getHostAddress()
                            + ", a private or reserved address that webhooks may not reach.");
                }
            }
            if (!ssl && !address.isLoopbackAddress()) {
                throw new Refused("The URL must be https (plain http only to a loopback address the operator allowed).");
            }
        }
        return new Target(uri, host, port, ssl, addresses[0], open);
    }

    /** Whether the address is public: in none of {@link #NOT_PUBLIC}. */
    static boolean isPublic(InetAddress address) {
        return NOT_PUBLIC.stream().noneMatch(n -> n.contains(address));
    }

    /** Public, or in a network the operator allowed (on any port). */
    boolean allowed(InetAddress address) {
        return allowed.stream().anyMatch(n -> n.contains(address)) || isPublic(address);
    }

    /** Public, or allowed: in an allowed network, or the exact host (or address) and port of an allowed pair. */
    boolean allowed(InetAddress address, String host, int port) {
        return allowed(address) || allowedEndpoints.stream().anyMatch(e -> e.matches(host, address, port));
    }

    /**
     * An exact receiver the operator allowed: a host name or an address, and a port. A name allows
     * what it resolves to (the operator's DNS says where it is), on that port alone.
     */
    record Endpoint(String name, byte[] address, int port) {

        private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile(
                "[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*");

        /** {@code host:port} or {@code [v6]:port}, not a network: an IPv6 literal without brackets has more than one colon. */
        static boolean isOne(String entry) {
            int colon = entry.indexOf(':');
            return !entry.contains("/") && (entry.startsWith("[") || colon > 0 && colon == entry.lastIndexOf(':'));
        }

        static Endpoint of(String entry) {
            int colon = entry.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("not a host and port: " + entry);
            }
            String host = entry.substring(0, colon);
            int port = port(entry.substring(colon + 1), entry);
            if (host.startsWith("[") && host.endsWith("]")) {
                String literal = host.substring(1, host.length() - 1);
                if (!literal.contains(":")) {
                    throw new IllegalArgumentException("not an IPv6 address: " + entry);
                }
                return new Endpoint(null, Network.of(literal).prefix(), port);
            }
            String name = host.toLowerCase(Locale.ROOT);
            if (name.matches("[0-9.]+")) {
                return new Endpoint(null, Network.of(name).prefix(), port);
            }
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("not a host and port: " + entry);
            }
            return new Endpoint(name, null, port);
        }

        private static int port(String digits, String entry) {
            if (!digits.matches("[0-9]{1,5}") || Integer.parseInt(digits) < 1 || Integer.parseInt(digits) > 65535) {
                throw new IllegalArgumentException("not a port (1 to 65535): " + entry);
            }
            return Integer.parseInt(digits);
        }

        boolean matches(String host, InetAddress resolved, int targetPort) {
            if (targetPort != port) {
                return false;
            }
            return name != null ? name.equals(host.toLowerCase(Locale.ROOT)) : Arrays.equals(address, resolved.getAddress());
        }
    }

    /** A network in CIDR notation. */
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
