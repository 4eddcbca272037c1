package org.ziggurat.gateway.identity;

import java.net.UnknownHostException;
import io.netty.handler.ipfilter.IpFilterRuleType;
import io.netty.handler.ipfilter.IpSubnetFilterRule;
import io.netty.util.NetUtil;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Who is calling, as an address: the TCP peer, unless the peer is one of the configured trusted
 * proxies (the ingress in front of the gateway). Then the proxies' {@code X-Forwarded-For} (or
 * RFC 7239 {@code Forwarded}) is read from the right, past every trusted proxy, to the first
 * address that is not one: the left of the list is whatever the caller sent, and only what a
 * trusted proxy appended can be believed. A header from an untrusted peer changes nothing.
 *
 * <p>Quarkus's own {@code trusted-proxies} takes the left-most address, which a caller writes
 * itself wherever the proxy appends to the header; and the gateway reads the peer before any of
 * Quarkus's handlers run (GatewayProxy). So the rule is here, with netty's subnet matching.
 */
public final class ClientAddresses {

    private final List<IpSubnetFilterRule> trusted;

    /** {@code proxies}: addresses or CIDR blocks ({@code 10.0.0.0/8}, {@code ::1}); none trusts no one. */
    public ClientAddresses(List<String> proxies) {
        List<IpSubnetFilterRule> rules = new ArrayList<>();
        for (String proxy : proxies) {
            String entry = proxy.trim();
            if (entry.isEmpty()) {
                continue;
            }
            int slash = entry.indexOf('/');
            String address = slash < 0 ? entry : entry.substring(0, slash);
            if (!NetUtil.isValidIpV4Address(address) && !NetUtil.isValidIpV6Address(address)) {
                throw new IllegalArgumentException("ziggurat.gateway.trusted-proxies: '" + entry + "' is not an address or CIDR block");
            }
            int bits = slash < 0 ? (address.contains(":") ? 128 : 32) : Integer.parseInt(entry.substring(slash + 1));
            rules.add(new IpSubnetFilterRule(address, bits, IpFilterRuleType.ACCEPT));
        }
        this.trusted = List.copyOf(rules);
    }

    /** The caller's address: the peer's, or the one the trusted proxies name. */
    public String of(String peer, String xForwardedFor, String forwarded) {
        if (peer == null || trusted.isEmpty() || !isTrusted(peer)) {
            return peer;
        }
        List<String> chain = forwarded != null ? forwardedFor(forwarded) : split(xForwardedFor);
        String client = peer;
        for (int i = chain.size() - 1; i >= 0; i--) {
            String hop = chain.get(i);
            if (!valid(hop)) {
                return client; // garbage where an address should be: stop at the last believable one
            }
            client = hop;
            if (!isTrusted(hop)) {
                return hop;
            }
        }
        return client;
    }

    boolean isTrusted(String address) {
        InetAddress parsed = parse(address);
        if (parsed == null) {
            return false;
        }
        InetSocketAddress socket = new InetSocketAddress(parsed, 0);
        for (IpSubnetFilterRule rule : trusted) {
            if (rule.matches(socket)) {
                return true;
            }
        }
        return false;
    }

    private static boolean valid(String address) {
        return parse(address) != null;
    }

    private static InetAddress parse(String address) {
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(address);
        if (bytes == null) {
            return null;
        }
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static List<String> split(String header) {
        List<String> hops = new ArrayList<>();
        if (header == null) {
            return hops;
        }
        for (String part : header.split(",")) {
            hops.add(unbracket(part.trim()));
        }
        return hops;
    }

    /** The {@code for=} of each element of an RFC 7239 header, in order. */
    private static List<String> forwardedFor(String header) {
        List<String> hops = new ArrayList<>();
        for (String element : header.split(",")) {
            String found = "";
            for (String pair : element.split(";")) {
                String[] kv = pair.trim().split("=", 2);
                if (kv.length == 2 && kv[0].trim().toLowerCase(Locale.ROOT).equals("for")) {
                    found = kv[1].trim();
                }
            }
            hops.add(unbracket(found));
        }
        return hops;
    }

    /** {@code "[2001:db8::1]:4711"} or {@code 192.0.2.1:80} to the address alone. */
    private static String unbracket(String value) {
        String v = value.startsWith("\"") && value.endsWith("\"") && value.length() > 1 ? value.substring(1, value.length() - 1) : value;
        if (v.startsWith("[")) {
            int end = v.indexOf(']');
            return end < 0 ? v : v.substring(1, end);
        }
        int colon = v.indexOf(':');
        return colon > 0 && v.indexOf(':', colon + 1) < 0 ? v.substring(0, colon) : v;
    }
}
