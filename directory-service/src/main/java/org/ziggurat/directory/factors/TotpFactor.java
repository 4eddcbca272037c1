package org.ziggurat.directory.factors;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.OffsetDateTime;

/** A person's TOTP key, sealed ({@link FactorSecrets}); counts once {@code confirmedAt} is set. */
@Entity
@Table(name = "totp_factor")
public class TotpFactor extends PanacheEntityBase {

    @Id
    @Column(name = "person_id")
    public Long personId;

    @Column(name = "secret_sealed", nullable = false)
    public byte[] secretSealed;

    @Column(name = "confirmed_at")
    public OffsetDateTime confirmedAt;

    @Column(name = "last_step", nullable = false)
    public long lastStep;

    @Column(name = "last_used_at")
    public OffsetDateTime lastUsedAt;

    @Column(name = "created_at", nullable = false, insertable = false, updatable = false)
    public OffsetDateTime createdAt;
}
