package org.ziggurat.directory.mail;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A mail waiting in the outbox, or sent: written by the transaction that causes it
 * ({@link MailOutbox#enqueue}), sent by {@link MailWorker}.
 */
@Entity
@Table(name = "mail_outbox")
public class OutboxMail extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "person_id")
    public Long personId;

    @Column(nullable = false)
    public String kind;

    @Column(nullable = false)
    public String recipient;

    @Column(nullable = false)
    public String subject;

    @Column(nullable = false)
    public String body;
}
