package org.ziggurat.events.webhooks;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.OffsetDateTime;

/**
 * A webhook subscription (V4): a namespace's, or one repository's when {@code repository} is set.
 * The secrets are sealed ({@link WebhookSecrets}); deliveries are the outbox's, in hand-written SQL
 * ({@link WebhookDeliveryRepository}), as is the look-up the append does in its own statement.
 */
@Entity
@Table(name = "webhook_subscription")
public class WebhookSubscription extends PanacheEntityBase {

    public static final String ACTIVE = "active";
    public static final String PAUSED = "paused";
    public static final String DISABLED = "disabled";

    /** Disabled after failing for the retry period. */
    public static final String FAILING = "failing";
    /** Disabled because its creator lost the rights that made it. */
    public static final String CREATOR = "creator";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    /** Null for the audit stream's subscriptions ({@code stream} audit). */
    public String namespace;

    /** data: a namespace's data events; audit: the platform's audit stream (the operators'). */
    @Column(nullable = false)
    public String stream = "data";

    public String repository;

    @Column(name = "target_url", nullable = false)
    public String targetUrl;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(nullable = false, columnDefinition = "text[]")
    public String[] kinds;

    @Column(nullable = false)
    public String description = "";

    @Column(nullable = false)
    public String state;

    @Column(name = "disabled_reason")
    public String disabledReason;

    /** Why the platform disabled it: {@link #FAILING} deliveries, or its {@link #CREATOR} lost their rights; else null. */
    @Column(name = "disabled_cause")
    public String disabledCause;

    @Column(name = "secret_sealed", nullable = false)
    public byte[] secretSealed;

    @Column(name = "previous_secret_sealed")
    public byte[] previousSecretSealed;

    @Column(name = "previous_secret_until")
    public OffsetDateTime previousSecretUntil;

    @Column(name = "api_base", nullable = false)
    public String apiBase;

    /** Who answers for it: its creator, or the admin who last made it active or changed its target (V6). */
    @Column(name = "creator_id", nullable = false)
    public long creatorId;

    /** The OAuth client of the token {@link #creatorId} used; null for their own token, issued without a client. */
    @Column(name = "creator_client_id")
    public String creatorClientId;

    /** When {@link #creatorId} took it on: made it, made it active or gave it a target (V7); other edits leave it. */
    @Column(name = "creator_since", nullable = false)
    public OffsetDateTime creatorSince;

    @Column(name = "created_at", nullable = false, updatable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;

    /** When the namespace's admins are owed a mail that it was disabled (an outbox on the row, {@link OwnerNotices}). */
    @Column(name = "notice_due_at")
    public OffsetDateTime noticeDueAt;
}
