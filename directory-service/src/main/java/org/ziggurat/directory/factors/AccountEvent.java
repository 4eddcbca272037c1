package org.ziggurat.directory.factors;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.OffsetDateTime;

/** Something that changed how a person's account is secured; {@code kind} is one of {@link AccountEvents}. */
@Entity
@Table(name = "account_event")
public class AccountEvent extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "person_id", nullable = false)
    public Long personId;

    @Column(nullable = false)
    public String kind;

    @Column(name = "client_address")
    public String clientAddress;

    @Column(name = "created_at", nullable = false, insertable = false, updatable = false)
    public OffsetDateTime createdAt;
}
