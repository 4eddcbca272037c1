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
 * public, or in a network the operator allowed ({@link WebhookSettings#allowedNetworks}). The check
 * runs when a subscription is saved and again before every attempt, and the delivery connects to
 * the address checked, not to a second resolution of the name (DNS rebinding).
 */
@ApplicationScoped
public class TargetAddresses {

    static final int MAX_URL_LENGTH = 2048;

    /** Not public: this host, private networks, link-local (cloud metadata), shared, reserved, multicast, documentation. */
    static final List<Network> NOT_PUBLIC = Network.all("0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8",
            "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16",
            "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
            // IPv6: unspecified and loopback, IPv4-compatible, NAT64 and 6to4 (which carry an IPv4
            // address inside), unique-local, link-local, site-local, multicast, documentation.
            "::/96", "::1/128", "64:ff9b::/96", "64:ff9b:1::/48", "2002::/16", "2001:db8::/32", "fc00::/7", "fe80::/10",
            "fec0::/10", "ff00::/8");

    private final List<Network> allowed;
    private final Vertx vertx;

    TargetAddresses(WebhookSettings settings, Vertx vertx) {
        this.vertx = vertx;
        this.allowed = settings.allowedNetworks().map(list -> Network.all(list.toArray(String[]::new))).orElse(List.of());
    }

    /** A URL that may be a target, and where to connect to. */
    public record Target(URI url, String host, int port, boolean ssl, InetAddress address) {
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
        for (InetAddress address : addresses) {
            if (!allowed(address)) {
                throw new Refused("The host " + host + " resolves to " + address.getHostAddress()
                        + ", a private or reserved address that webhooks may not reach.");
            }
            if (!ssl && !address.isLoopbackAddress()) {
                throw new Refused("The URL must be https (plain http only to a loopback address the operator allowed).");
            }
        }
        int port = uri.getPort() != -1 ? uri.getPort() : ssl ? 443 : 80;
        return new Target(uri, host, port, ssl, addresses[0]);
    }

    boolean allowed(InetAddress address) {
        return allowed.stream().anyMatch(n -> n.contains(address)) || NOT_PUBLIC.stream().noneMatch(n -> n.contains(address));
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
                byte[] bytes = InetAddress.getByName(literal).getAddress();
                int bits = slash < 0 ? bytes.length * 8 : Integer.parseInt(cidr.substring(slash + 1));
                if (bits < 0 || bits > bytes.length * 8) {
                    throw new IllegalArgumentException("bad prefix length: " + cidr);
                }
                return new Network(bytes, bits);
            } catch (UnknownHostException | NumberFormatException e) {
                throw new IllegalArgumentException("not a network: " + cidr, e);
            }
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
