package org.ziggurat.events.webhooks;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Webhooks: where they may point, how they are delivered and retried (docs/webhooks.md). */
@ConfigMapping(prefix = "ziggurat.events.webhooks")
public interface WebhookSettings {

    /**
     * AES-GCM key (base64, 32 bytes) that seals the subscriptions' secrets at rest. Required in
     * production (the settings check refuses to start without it); dev and tests have their own.
     */
    Optional<String> secretKey();

    /**
     * The receivers inside the platform's network that webhooks may reach: exact host (or address)
     * and port pairs ({@code siem.internal:8443}, {@code 10.20.0.7:8443}, {@code [fd12::7]:8443}),
     * and, as older settings say, networks (CIDR, such as {@code 127.0.0.1/32}: every port in them,
     * which the pairs are meant to replace). None by default: a target that resolves to a loopback,
     * private, link-local, unique-local, shared or multicast address is refused (SSRF). Plain
     * {@code http} is taken only for a loopback address allowed here. Whatever allows it, a target
     * that is not public has only its answers' status kept in the log, never their bodies.
     */
    Optional<List<String>> allowedNetworks();

    /** How often each replica looks for due deliveries when no notification woke it (a new delivery wakes it at once). */
    @WithDefault("1s")
    Duration poll();

    /**
     * How often each replica looks for mails owed to the admins of a disabled webhook when no
     * notification woke it; also the first wait after the directory could not take one.
     */
    @WithDefault("10s")
    Duration noticePoll();

    /** Deliveries one replica has under way at once (each a connection to a receiver). */
    @WithDefault("64")
    int concurrency();

    @WithDefault("5s")
    Duration connectTimeout();

    /** The whole exchange with a receiver, connection included: longer is a failed attempt. */
    @WithDefault("10s")
    Duration timeout();

    /** After a failed attempt: the first wait, doubled each time up to the longest, with jitter. */
    @WithDefault("10s")
    Duration firstRetry();

    @WithDefault("1h")
    Duration longestRetry();

    /**
     * How long a delivery is retried from its first attempt; past it the delivery fails and the
     * subscription is disabled, and the namespace's admins are told by mail.
     */
    @WithDefault("3d")
    Duration retryFor();

    /** How many bytes of a receiver's answer the delivery log keeps; the rest is not read. */
    @WithDefault("1024")
    int answerBytes();

    /** How long the previous secret still signs after a rotation. */
    @WithDefault("24h")
    Duration rotationOverlap();

    /** Subscriptions of one namespace, its repositories' included. */
    @WithDefault("100")
    int maxPerNamespace();

    /**
     * After a person's way to act ends elsewhere (a grant revoked, an unproven account recovered):
     * how long tokens from before may still reach this service (the gateway's token cache, 30 s by
     * default, and the audit relay's delay, with a margin for clocks). Within it nobody the end names
     * makes or takes on a webhook, and what they took on up to its close stops too.
     */
    @WithDefault("2m")
    Duration endedAccessGrace();

    /** How long finished deliveries and their attempts stay in the log. */
    @WithDefault("30d")
    Duration keepLog();
}
