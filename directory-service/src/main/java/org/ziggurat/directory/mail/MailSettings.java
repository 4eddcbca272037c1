package org.ziggurat.directory.mail;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/**
 * How the outbox is sent. The SMTP server itself is quarkus-mailer's ({@code quarkus.mailer.host},
 * {@code port}, {@code tls}, {@code username}, {@code password}, {@code from}).
 */
@ConfigMapping(prefix = "ziggurat.mail")
public interface MailSettings {

    /** How often each replica looks for mail to send when no notification woke it (a new mail wakes it at once). */
    @WithDefault("2s")
    Duration poll();

    /** Mails one replica claims at a time. */
    @WithDefault("20")
    int batch();

    /**
     * How long a claimed mail is its replica's: longer than an SMTP exchange can take (the
     * mailer's own timeouts), so that two replicas never send one mail while both are alive.
     */
    @WithDefault("2m")
    Duration lease();

    /**
     * The first wait after a failure; each further failure doubles it, up to {@link #longestRetry()},
     * less a random part of up to half (so that mail failed in one outage is not all tried at once).
     */
    @WithDefault("10s")
    Duration firstRetry();

    @WithDefault("1h")
    Duration longestRetry();

    /** How long sent mail stays in the outbox (for support: what was sent, when). */
    @WithDefault("30d")
    Duration keepSent();

    /**
     * The account pages as people reach them (through the gateway), which the mails link to:
     * {@code /security} to secure the account.
     */
    @WithDefault("http://localhost:8080/api/account")
    String accountUrl();
}
