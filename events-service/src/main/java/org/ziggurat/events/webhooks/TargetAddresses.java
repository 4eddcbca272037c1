package org.ziggurat.events.webhooks;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import org.ziggurat.platform.http.PublicAddresses;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Where a webhook may point: receivers must not be a way into the platform's own network (SSRF).
 * A target is held to the platform's rules of a URL called on someone else's word
 * ({@link PublicAddresses}): an absolute {@code https} URL (plain {@code http} only to a loopback
 * address the operator allowed), without credentials or fragment; every address its host resolves
 * to must be public, or allowed by the operator ({@link WebhookSettings#allowedNetworks}): here also
 * an exact host and port ({@code siem.internal:8443}, {@code 10.0.0.7:8443}, {@code [fd00::7]:8443}),
 * or, as older settings say, a network (CIDR, or one address on any port). The check runs when a
 * subscription is saved and again before every attempt, and the delivery connects to the address
 * checked, not to a second resolution of the name (DNS rebinding). A target that is not public is
 * answered for in status only: its answer's body is never kept ({@link Target#open}), so a webhook
 * does not read an internal endpoint back through the delivery log.
 */
@ApplicationScoped
public class TargetAddresses {

    static final int MAX_URL_LENGTH = PublicAddresses.MAX_URL_LENGTH;

    private final PublicAddresses rules;
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
        this.rules = new PublicAddresses(networks);
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
        String fault = PublicAddresses.formFault(url);
        return PublicAddresses.CARRIES_CREDENTIALS.equals(fault) ? fault + " (the signature proves the sender)" : fault;
    }

    /** Resolves the URL's host (off the event loop) and checks every address; fails with {@link Refused}. */
    public Uni<Target> check(String url) {
        String fault = formFault(url);
        if (fault != null) {
            return Uni.createFrom().failure(new Refused("The URL " + fault + "."));
        }
        URI uri = URI.create(url);
        String host = PublicAddresses.host(uri);
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

    /** Whether the address is public: in none of the reserved networks. */
    static boolean isPublic(InetAddress address) {
        return PublicAddresses.isPublic(address);
    }

    /** Public, or in a network the operator allowed (on any port). */
    boolean allowed(InetAddress address) {
        return rules.allowed(address);
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
                return new Endpoint(null, PublicAddresses.addressBytes(literal), port);
            }
            String name = host.toLowerCase(Locale.ROOT);
            if (name.matches("[0-9.]+")) {
                return new Endpoint(null, PublicAddresses.addressBytes(name), port);
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
}
