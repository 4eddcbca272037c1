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

    /** The browser as it named itself (User-Agent, at most 300 characters); null when not known. */
    public String device;

    /** The device without version numbers: what "a device seen before" compares. */
    @Column(name = "device_key")
    public String deviceKey;

    /** What the change concerned, where the kind needs it: an application's name, a new address. */
    public String detail;

    @Column(name = "created_at", nullable = false, insertable = false, updatable = false)
    public OffsetDateTime createdAt;

    /** A new entry, to persist; {@code address} and {@code detail} may be null. */
    public static AccountEvent of(long personId, String kind, String address, String detail) {
        AccountEvent event = new AccountEvent();
        event.personId = personId;
        event.kind = kind;
        event.clientAddress = address;
        event.detail = detail;
        return event;
    }
}
